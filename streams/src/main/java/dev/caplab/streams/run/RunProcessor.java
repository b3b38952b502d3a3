package dev.caplab.streams.run;

import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunLateness;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.lifecycle.RunOrigins;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.DeadLetterHeaders;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.streams.Micros;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.aggregate.BufferedSample;
import dev.caplab.streams.aggregate.StepStatistics;
import dev.caplab.streams.input.InputEvent;
import dev.caplab.streams.step.LevelChanges;
import dev.caplab.streams.step.LevelPoint;
import dev.caplab.streams.step.SampleKeys;
import dev.caplab.streams.step.StepWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-run state machine: folds samples into per-second partials ({@link PartialStore}), tracks lifecycle and
 * load level, and closes steps in order once event time (or wall clock, for the last step) has passed their end plus
 * grace. A step is computed from the partials, never consumed, so a late sample re-emits its step (and the run's
 * fits) at a higher revision, and a lifecycle event that redefines a closed step re-closes it: the result depends
 * on what the run received, not on the order it came in. Amendments are throttled to one per run per
 * {@link TopologySettings#punctuateInterval()}. Keyed by run id; the runs and samples topics are co-partitioned, so
 * one task owns a run.
 *
 * <p>One bad run never stops the others: an input the run cannot take (blank run id, a sample beyond
 * {@link RunLimits}, a record that would overflow the state bound) or any exception while processing it is
 * dead-lettered with the reason, the run is alerted ({@link RunAlerts}), and the next record is processed. A run's
 * partials are deleted {@link TopologySettings#allowedLateness()} after it ended (a run without input for that long
 * is ended at its last sample first); its state shrinks to a marker that counts the samples arriving beyond the
 * allowed lateness (stored raw by the sink, in no aggregate), reported in {@code RunLateness}.
 */
public final class RunProcessor implements Processor<String, InputEvent, String, DerivedEvent> {

    /** Late samples (after their step closed, or beyond the allowed lateness) are counted in this sensor's {@code late-samples-total}. */
    public static final String LATE_SAMPLES_OPERATION = "late-samples";
    /** Input records dead-lettered by the run processor are counted in this sensor's {@code rejected-records-total}. */
    public static final String REJECTED_OPERATION = "rejected-records";
    public static final String METRICS_SCOPE = "caplab";
    private static final String STAGE = "run-processor";
    private static final Logger LOG = LoggerFactory.getLogger(RunProcessor.class);

    private final TopologySettings settings;
    private final RunLimits limits;
    private final String runStateStore;
    private final String partialsStore;
    private final String inferredStore;
    private final String measuredStore;
    private final DueIndex due = new DueIndex();
    private SamplesCatchUp samplesCatchUp;
    private ProcessorContext<String, DerivedEvent> context;
    private RunStateStore runs;
    private PartialStore partials;
    private StepCloser closer;
    private InferredRuns inferred;
    private MeasuredCeilings measured;
    private Sensor lateSensor;
    private Sensor rejectedSensor;
    private SeriesInterner series;

    public RunProcessor(TopologySettings settings, String runStateStore, String partialsStore, String inferredStore,
            String measuredStore) {
        this.settings = settings;
        this.limits = settings.limits();
        this.runStateStore = runStateStore;
        this.partialsStore = partialsStore;
        this.inferredStore = inferredStore;
        this.measuredStore = measuredStore;
    }

    @Override
    public void init(ProcessorContext<String, DerivedEvent> context) {
        this.context = context;
        this.runs = new RunStateStore(context.getStateStore(runStateStore), limits);
        this.partials = new PartialStore(context.getStateStore(partialsStore));
        this.series = new SeriesInterner(limits);
        this.measured = new MeasuredCeilings(context.getStateStore(measuredStore));
        this.closer = new StepCloser(partials, settings, measured);
        this.inferred = new InferredRuns(context.getStateStore(inferredStore), settings);
        this.lateSensor = context.metrics().addRateTotalSensor(METRICS_SCOPE, context.taskId().toString(),
                LATE_SAMPLES_OPERATION, Sensor.RecordingLevel.INFO);
        this.rejectedSensor = context.metrics().addRateTotalSensor(METRICS_SCOPE, context.taskId().toString(),
                REJECTED_OPERATION, Sensor.RecordingLevel.INFO);
        long now = context.currentSystemTimeMs();
        this.samplesCatchUp = new SamplesCatchUp(now);
        // Once per task start (stores are restored by then): later punctuations visit only the runs due.
        runs.forEach((runId, state) -> due.schedule(runId, state == null ? Long.MAX_VALUE : nextDue(state.toMutable(),
                now)));
        context.schedule(tick(settings), PunctuationType.WALL_CLOCK_TIME, this::punctuate);
    }

    /**
     * How often the wall clock is checked for runs due: at most {@link #CLOSE_TICK}, so a step closing on the
     * wall clock (the last one, grace after its end was seen) is emitted within 200 ms of being due rather than up to
     * a whole {@code punctuateInterval} later; amendments stay throttled to one per run per
     * {@code punctuateInterval}. A tick visits only the runs due ({@link DueIndex}), so a finer one costs nothing
     * when none is.
     */
    static Duration tick(TopologySettings settings) {
        return settings.punctuateInterval().compareTo(CLOSE_TICK) < 0 ? settings.punctuateInterval() : CLOSE_TICK;
    }

    private static final Duration CLOSE_TICK = Duration.ofMillis(200);
    /** How soon a run due to close but waiting for its samples ({@link SamplesCatchUp}) is looked at again. */
    private static final Duration SAMPLES_RECHECK = Duration.ofMillis(500);

    @Override
    public void process(Record<String, InputEvent> record) {
        RecordMetadata meta = context.recordMetadata().orElseThrow();
        String runId = record.key();
        if (runId == null || runId.isBlank()) {
            reject(record, meta, null, "blank or missing run id key");
            return;
        }
        Optional<String> longId = SampleCheck.tooLong("run id", runId, limits.maxNameBytes());
        if (longId.isPresent()) {
            reject(record, meta, null, longId.get());
            return;
        }
        try {
            processRun(runId, record, meta);
        } catch (RuntimeException e) {
            LOG.error("run {}: processing {}-{}@{} failed; the record is dead-lettered, the run alerted", runId,
                    meta.topic(), meta.partition(), meta.offset(), e);
            reject(record, meta, runId, "processing failed: " + e);
        }
    }

    private void processRun(String runId, Record<String, InputEvent> record, RecordMetadata meta) {
        RunState stored = runs.get(runId);
        RunState.Mutable run = (stored == null ? RunState.empty(runId) : stored).toMutable();
        long now = context.currentSystemTimeMs();
        if (stored == null) {
            runFirstSeen(run, record);
        }
        run.lastInputWallMillis = now;
        samplesCatchUp.read(now);
        switch (record.value()) {
            case InputEvent.Samples s -> samplesCatchUp.samplesRead(runId, record.timestamp());
            case InputEvent.Lifecycle l when l.event() instanceof StepEnded || l.event() instanceof RunEnded ->
                    samplesCatchUp.endRead(runId, record.timestamp(),
                            record.headers().lastHeader(TopicCatalog.SAMPLES_MARK_HEADER) != null);
            default -> {
                // other lifecycle events close nothing
            }
        }
        List<DerivedEvent> alerts = new ArrayList<>();
        List<BufferedSample> buffered = List.of();
        switch (record.value()) {
            case InputEvent.Lifecycle l when run.expired -> {
                // Beyond the allowed lateness: the sink stores the event; the run's derived records stay as they are.
            }
            case InputEvent.Samples s when run.expired -> {
                run.beyondLateness += s.batch().getSamples().size();
                lateSensor.record(s.batch().getSamples().size());
            }
            case InputEvent.Lifecycle l -> onLifecycle(run, l.event(), now);
            case InputEvent.Samples s -> {
                buffered = onSamples(run, s, record, meta, alerts);
            }
            case InputEvent.Poison p -> throw new IllegalStateException("poison reached the run processor: "
                    + p.reason());
        }
        RunState candidate = run.freeze();
        long core = RunStateSerde.encode(candidate).length - RunStateSerde.derivedBytes(candidate);
        if (core > limits.maxCoreStateBytes()) {
            reject(record, meta, runId, "the run's state would grow to " + core + " bytes of input-driven state, "
                    + "more than " + limits.maxCoreStateBytes() + " (the record is left out, the run goes on)");
            return;
        }
        if (!buffered.isEmpty()) {
            partials.fold(runId, buffered);
        }
        alerts.addAll(inferred.onInput(run, record.value())); // undeclared runs: inferred start, ends repeated
        measured.onInput(runId, record.value()); // an iperf3 report's egress ceiling
        advance(run, now, record.timestamp(), true, alerts);
    }

    // Only samples advance a run's event time: lifecycle is small and often processed ahead of the samples it
    // brackets (a controller's StepEnded overtakes the host sampler's last batch), and a step closed on lifecycle
    // time would be judged without those samples. The wall-clock fallback closes a run whose samples stopped.
    private void onLifecycle(RunState.Mutable run, SpecificRecord event, long nowMillis) {
        switch (event) {
            case RunStarted r -> {
                if (RunOrigins.declared(r)) { // our own inferred start, echoed, is no declaration
                    run.startedChanged |= !r.equals(run.started);
                    run.started = r;
                }
            }
            case StepStarted s -> {
                Map<String, Double> load = new TreeMap<>();
                long start = Micros.of(s.getStartedAt());
                s.getLoad().forEach((k, v) -> load.put(k.toString(), v));
                StepWindow previous = run.declared.get(s.getStepIndex());
                Long pendingEnd = run.pendingEnds.remove(s.getStepIndex());
                long end = previous != null ? previous.endMicros() : pendingEnd != null ? pendingEnd : StepWindow.OPEN;
                run.declared.put(s.getStepIndex(), new StepWindow(s.getStepIndex(), load, start,
                        end == StepWindow.OPEN ? end : Math.max(end, start), s.getWarmupMicros(), false));
            }
            case StepEnded e -> {
                StepWindow w = run.declared.get(e.getStepIndex());
                if (w == null) {
                    // Its StepStarted is still on its way (another request, a retry): the end waits for it.
                    run.pendingEnds.put(e.getStepIndex(), Micros.of(e.getEndedAt()));
                } else {
                    run.declared.put(w.index(), w.endingAt(Micros.of(e.getEndedAt())));
                }
                run.endSeenWallMillis.put(e.getStepIndex(), stepEndSeen(run, nowMillis));
            }
            case RunEnded e -> {
                run.runEndedMicros = Micros.of(e.getEndedAt());
                run.runEndSeenWallMillis = nowMillis;
                if (e.getAllSamplesSent()) {
                    waiveGrace(run, nowMillis);
                }
            }
            default -> {
                // Annotations and deletions do not affect aggregation; the sink stores them (a deleted run's rows stay
                // and every read leaves them out).
            }
        }
    }

    /**
     * When a step end counts as seen: now, unless the run's end was seen with its grace already passed or waived
     * ({@link #waiveGrace}); then nothing is left to wait for and the step counts as ending with the run.
     */
    private long stepEndSeen(RunState.Mutable run, long nowMillis) {
        boolean runGraceOver = run.runEndedMicros >= 0
                && run.runEndSeenWallMillis <= nowMillis - settings.grace().toMillis();
        return runGraceOver ? run.runEndSeenWallMillis : nowMillis;
    }

    /**
     * The sender vouched that every sample was acknowledged before the run's end: the grace, which waits for
     * stragglers, has nothing left to wait for. The ends seen so far count as seen a grace ago, so every step whose
     * end is known closes as soon as this task has read the samples sent before the end ({@link SamplesCatchUp}),
     * and the run with them; a sample still to come amends them as late data.
     */
    private void waiveGrace(RunState.Mutable run, long nowMillis) {
        long graceAgo = nowMillis - settings.grace().toMillis();
        run.runEndSeenWallMillis = graceAgo;
        run.endSeenWallMillis.replaceAll((step, seen) -> Math.min(seen, graceAgo));
    }

    /**
     * Where a run is first seen (its first record of any kind): the place for inferred runs to begin. Nothing to do
     * yet: an empty state is what a run without ceremony starts from.
     */
    private void runFirstSeen(RunState.Mutable run, Record<String, InputEvent> record) {
        LOG.debug("run {}: first seen at {}", run.runId, record.timestamp());
    }

    /** The batch's samples within limits, to fold in; the others are left out, the batch dead-lettered with why. */
    private List<BufferedSample> onSamples(RunState.Mutable run, InputEvent.Samples batch,
            Record<String, InputEvent> record, RecordMetadata meta, List<DerivedEvent> alerts) {
        List<StepWindow> timeline = run.closedSteps > 0 || run.runClosed ? Timeline.of(run, settings) : List.of();
        List<Sample> samples = batch.batch().getSamples();
        List<BufferedSample> buffered = new ArrayList<>(samples.size());
        int leftOut = 0;
        String firstProblem = null;
        for (Sample s : samples) {
            SeriesInterner.Checked checked = series.of(s);
            Optional<String> problem = checked.problem().or(() -> SampleCheck.summaryProblem(s, limits));
            if (problem.isPresent()) {
                leftOut++;
                firstProblem = firstProblem == null ? problem.get() : firstProblem;
                continue;
            }
            BufferedSample b = BufferedSample.of(s, checked.series());
            buffered.add(b);
            long t = b.timestampMicros();
            String metric = b.metric();
            if (run.declared.isEmpty() && settings.loadLevelMetrics().contains(metric)
                    && LevelChanges.add(run.levels, new LevelPoint(metric, t, s.getValue()), limits.maxLevelChanges())
                    == LevelChanges.Added.FULL && run.firstTimeReached(RunState.Limit.LEVEL_CHANGES)) {
                alerts.add(RunAlerts.limit(run.runId, s.getTimestamp(), "more than " + limits.maxLevelChanges()
                        + " load-level changes; later changes are ignored for step inference"));
            }
            if (run.runEndedMicros >= 0 && run.maxEventMicros <= run.runEndedMicros && t > run.runEndedMicros) {
                run.concludeDue = true; // the conclusion now warns of samples after the end (RunWarnings)
            }
            if (b.kind() == SampleKind.COUNTER) {
                markNextStepIfPrior(run, timeline, t);
            }
            if (markIfLate(run, timeline, t)) {
                run.lateSamples++;
                lateSensor.record();
            }
            run.observeEventTime(t);
        }
        if (leftOut > 0) {
            String reason = leftOut + " of " + samples.size() + " samples left out of aggregation, first: "
                    + firstProblem;
            deadLetter(record, meta, reason);
            if (run.firstTimeReached(RunState.Limit.SAMPLE_FIELDS)) {
                alerts.add(RunAlerts.rejected(run.runId, Instant.ofEpochMilli(record.timestamp()), reason
                        + " (alerted once per run; every such batch is dead-lettered)"));
            }
        }
        return buffered;
    }

    /**
     * Whether a sample at {@code tMicros} reaches a part of the run already emitted: a closed step (marked to amend,
     * its late count raised), the baseline once the first step closed, or the unassigned seconds once the run
     * closed. A second belongs to the step its start falls in, as {@link PartialStore#range} reads it.
     */
    private static boolean markIfLate(RunState.Mutable run, List<StepWindow> timeline, long tMicros) {
        long second = SampleKeys.bucketOf(tMicros);
        int closed = Math.min(run.closedSteps, timeline.size());
        for (int i = 0; i < closed; i++) {
            StepMark mark = run.marks.get(i);
            if (timeline.get(i).contains(second) && mark != null) {
                run.marks.put(i, mark.withLateSample());
                run.dirtySteps.add(i);
                return true;
            }
        }
        if (closed > 0 && second < timeline.getFirst().startMicros()) {
            run.baselineDirty = true;
            return true;
        }
        if (run.runClosed && timeline.stream().noneMatch(w -> w.contains(second))) {
            run.unassignedDirty = true;
            return true;
        }
        return false;
    }

    /**
     * A counter reading may be the last one before a closed step, from which that step's increase runs
     * ({@link dev.caplab.streams.aggregate.StepStatistics}): the first closed step starting after it, within the
     * lookback, is marked to amend.
     */
    private static void markNextStepIfPrior(RunState.Mutable run, List<StepWindow> timeline, long tMicros) {
        long second = SampleKeys.bucketOf(tMicros);
        int closed = Math.min(run.closedSteps, timeline.size());
        for (int i = 0; i < closed; i++) {
            long start = timeline.get(i).startMicros();
            if (start > second) {
                if (start - second <= StepStatistics.COUNTER_LOOKBACK_MICROS && run.marks.get(i) != null) {
                    run.dirtySteps.add(i);
                }
                return;
            }
        }
    }

    /** Closes what is due in {@code run}, forwards what that derived, and says whether it forwarded anything. */
    private boolean advance(RunState.Mutable run, long nowMillis, long timestamp, boolean changed,
            List<DerivedEvent> alerts) {
        List<DerivedEvent> out = new ArrayList<>(alerts);
        List<StepWindow> timeline = Timeline.of(run, settings);
        reopenRedefined(run, timeline);
        out.addAll(closer.dropVanished(run, timeline));
        long graceMillis = settings.grace().toMillis();
        boolean samplesRead = samplesCatchUp.caughtUp(run.runId, nowMillis);
        while (run.closedSteps < timeline.size()) {
            StepWindow w = timeline.get(run.closedSteps);
            if (w.isOpen()) {
                break;
            }
            long seen = Timeline.endSeenWallMillis(run, w);
            boolean eventTimeReady = run.maxEventMicros >= w.endMicros() + settings.graceMicros();
            boolean wallReady = seen >= 0 && nowMillis >= seen + graceMillis && samplesRead;
            if (!eventTimeReady && !wallReady) {
                break;
            }
            if (run.closedSteps == 0) {
                out.addAll(closer.baseline(run, w.startMicros(), new boolean[1]));
            }
            out.addAll(closer.close(run, w));
            run.closedSteps++;
            if (run.fitPointsChanged) {
                run.fitPointsChanged = false;
                out.addAll(closer.refit(run, w));
            }
        }
        if (amendmentDue(run, nowMillis)) {
            run.lastAmendWallMillis = nowMillis;
            amend(run, timeline, out);
            if (run.fitPointsChanged) {
                run.fitPointsChanged = false;
                // one refit for all the steps amended together, stamped at the latest closed step's end
                out.addAll(closer.refit(run, timeline.get(Math.min(run.closedSteps, timeline.size()) - 1)));
            }
        }
        if (run.runEndedMicros >= 0 && !run.runClosed && run.closedSteps == timeline.size()) {
            boolean ready = run.maxEventMicros >= run.runEndedMicros + settings.graceMicros()
                    || nowMillis >= run.runEndSeenWallMillis + graceMillis && samplesRead;
            if (ready) {
                out.addAll(closer.flushUnassigned(run, timeline));
                run.runClosed = true;
                samplesCatchUp.forget(run.runId);
                run.concludeDue = true;
            }
        }
        if (run.concludeDue) {
            closer.conclude(run, timeline).ifPresent(out::add);
        }
        if (changed || !out.isEmpty()) {
            runs.put(run.runId, withinBound(run, out));
        }
        due.schedule(run.runId, nextDue(run, nowMillis));
        for (DerivedEvent e : out) {
            context.forward(new Record<>(run.runId, e, timestamp));
        }
        return !out.isEmpty();
    }

    /**
     * A lifecycle event that changed a closed step's window (a step event arriving after samples closed an inferred
     * or provisional step), or a RunStarted that changes rules, load expression or environment, re-opens the steps
     * from there: they close again from the partials at their next revision.
     */
    private static void reopenRedefined(RunState.Mutable run, List<StepWindow> timeline) {
        if (run.startedChanged) {
            run.startedChanged = false;
            // ceilings and the load expression feed the fits even where the points stay the same
            run.fitPointsChanged = run.closedSteps > 0;
            run.closedSteps = 0;
            return;
        }
        for (int i = 0; i < run.closedSteps; i++) {
            StepMark mark = run.marks.get(i);
            if (mark != null && (i >= timeline.size() || !mark.window().equals(timeline.get(i)))) {
                run.closedSteps = i;
                return;
            }
        }
    }

    private boolean amendmentDue(RunState.Mutable run, long nowMillis) {
        return pendingAmendment(run) && nowMillis >= run.lastAmendWallMillis + settings.punctuateInterval().toMillis();
    }

    private static boolean pendingAmendment(RunState.Mutable run) {
        return !run.dirtySteps.isEmpty() || run.baselineDirty || (run.runClosed && run.unassignedDirty)
                || run.lateSamples + run.beyondLateness != run.latenessEmitted;
    }

    /**
     * Re-emits what late samples changed: the baseline (and every closed step when its values moved), the dirty
     * steps, the unassigned seconds, and the run's lateness counts.
     */
    private void amend(RunState.Mutable run, List<StepWindow> timeline, List<DerivedEvent> out) {
        int closed = Math.min(run.closedSteps, timeline.size());
        if (run.baselineDirty && closed > 0) {
            boolean[] changed = new boolean[1];
            out.addAll(closer.baseline(run, timeline.getFirst().startMicros(), changed));
            for (int i = 0; changed[0] && i < closed; i++) {
                run.dirtySteps.add(i);
            }
        }
        for (int i : List.copyOf(run.dirtySteps)) {
            if (i < closed) {
                out.addAll(closer.close(run, timeline.get(i)));
            }
        }
        run.dirtySteps.clear();
        if (run.runClosed && run.unassignedDirty) {
            out.addAll(closer.flushUnassigned(run, timeline));
        }
        if (run.lateSamples + run.beyondLateness != run.latenessEmitted) {
            run.latenessEmitted = run.lateSamples + run.beyondLateness;
            run.latenessRevision++;
            out.add(new DerivedEvent.Lateness(RunLateness.newBuilder().setRunId(run.runId)
                    .setLateSamples(run.lateSamples).setBeyondLatenessSamples(run.beyondLateness)
                    .setUpdatedAt(Instant.ofEpochMilli(run.lastAmendWallMillis)).setVersion(run.latenessRevision)
                    .build()));
        }
    }

    /**
     * The run's encoded state, within {@link RunLimits#maxStateBytes()}: when the derived parts push it over, the
     * baselines are dropped first, then the fit points (later fits then start over), and the run is alerted once.
     */
    private byte[] withinBound(RunState.Mutable run, List<DerivedEvent> out) {
        byte[] bytes = RunStateSerde.encode(run.freeze());
        if (bytes.length <= limits.maxStateBytes()) {
            return bytes;
        }
        if (run.firstTimeReached(RunState.Limit.STATE_BYTES)) {
            out.add(RunAlerts.limit(run.runId, Micros.toInstant(run.maxEventMicros), "run state of " + bytes.length
                    + " bytes, more than " + limits.maxStateBytes() + "; baselines and then fit points are dropped"));
        }
        run.baseline.clear();
        bytes = RunStateSerde.encode(run.freeze());
        if (bytes.length > limits.maxStateBytes()) {
            run.fitPoints.clear();
            run.cliffs.clear();
            bytes = RunStateSerde.encode(run.freeze());
        }
        return bytes;
    }

    /** When the run next needs the wall clock; {@link Long#MAX_VALUE} when only input can move it. */
    private long nextDue(RunState.Mutable run, long nowMillis) {
        long lateness = settings.allowedLateness().toMillis();
        long amend = pendingAmendment(run) ? run.lastAmendWallMillis + settings.punctuateInterval().toMillis()
                : Long.MAX_VALUE;
        if (run.expired) {
            return amend;
        }
        if (run.runClosed) {
            return Math.min(amend, run.runEndSeenWallMillis + lateness);
        }
        long graceMillis = settings.grace().toMillis();
        long next = Long.MAX_VALUE;
        List<StepWindow> timeline = Timeline.of(run, settings);
        if (run.closedSteps < timeline.size()) {
            long seen = Timeline.endSeenWallMillis(run, timeline.get(run.closedSteps));
            if (seen >= 0 && !timeline.get(run.closedSteps).isOpen()) {
                next = seen + graceMillis;
            }
        } else if (run.runEndedMicros >= 0) {
            next = run.runEndSeenWallMillis + graceMillis;
        }
        if (next <= nowMillis && !samplesCatchUp.caughtUp(run.runId, nowMillis)) {
            next = nowMillis + SAMPLES_RECHECK.toMillis(); // due, but its samples are still to be read
        }
        if (run.runEndedMicros < 0) {
            long lastInput = run.lastInputWallMillis > 0 ? run.lastInputWallMillis : nowMillis;
            next = Math.min(next, lastInput + inferred.idleEnd(run).toMillis()); // a run nobody declared ends when idle
        }
        return Math.min(next, amend);
    }

    private void punctuate(long nowMillis) {
        samplesCatchUp.tick();
        boolean emitted = false;
        for (String runId : due.due(nowMillis)) {
            try {
                RunState stored = runs.get(runId);
                if (stored == null) {
                    due.schedule(runId, Long.MAX_VALUE);
                    continue;
                }
                RunState.Mutable run = stored.toMutable();
                long lateness = settings.allowedLateness().toMillis();
                if (!run.expired && run.runClosed && !pendingAmendment(run)
                        && nowMillis >= run.runEndSeenWallMillis + lateness) {
                    expire(run);
                    continue;
                }
                boolean changed = false;
                List<DerivedEvent> ended = List.of();
                if (run.lastInputWallMillis == 0) {
                    run.lastInputWallMillis = nowMillis; // state from before input times were kept
                    changed = true;
                } else if (!run.expired && run.runEndedMicros < 0
                        && nowMillis >= run.lastInputWallMillis + inferred.idleEnd(run).toMillis()) {
                    runIdle(run, nowMillis);
                    changed = true;
                    ended = inferred.endedIdle(run); // the RunEnded the runs table gets
                }
                emitted |= advance(run, nowMillis, nowMillis, changed, ended);
            } catch (RuntimeException e) {
                // Left unscheduled until its next input, so one broken run is not retried every second.
                due.schedule(runId, Long.MAX_VALUE);
                LOG.error("run {}: closing on the wall clock failed; the run waits for its next input", runId, e);
                context.forward(new Record<>(runId, RunAlerts.limit(runId, Instant.ofEpochMilli(nowMillis),
                        "closing steps failed: " + e), nowMillis));
            }
        }
        if (emitted) {
            // Under exactly-once what was forwarded is visible only once the transaction commits: ask for it now
            // rather than at the next commit interval, so a step closed on the wall clock (a run's last step, a
            // grace after its end) reaches the store within a tick of being due.
            context.commit();
        }
    }

    /** The run had no input for its idle time ({@link InferredRuns#idleEnd}) and never ended: it ends at its last sample. */
    private void runIdle(RunState.Mutable run, long nowMillis) {
        LOG.info("run {}: no input for {}, ended at its last sample", run.runId, inferred.idleEnd(run));
        run.runEndedMicros = run.maxEventMicros;
        run.runEndSeenWallMillis = nowMillis - settings.grace().toMillis();
    }

    /**
     * The run ended more than the allowed lateness ago: its partials are deleted and its state shrinks to a marker
     * keeping the lateness counts, so samples arriving later are counted (beyond the allowed lateness), not taken
     * for a new run.
     */
    private void expire(RunState.Mutable run) {
        samplesCatchUp.forget(run.runId);
        inferred.forget(run.runId);
        measured.forget(run.runId);
        partials.deleteRun(run.runId);
        RunState.Mutable marker = RunState.empty(run.runId).toMutable();
        marker.expired = true;
        marker.lateSamples = run.lateSamples;
        marker.beyondLateness = run.beyondLateness;
        marker.latenessEmitted = run.latenessEmitted;
        marker.latenessRevision = run.latenessRevision;
        marker.lastInputWallMillis = run.lastInputWallMillis;
        runs.put(run.runId, RunStateSerde.encode(marker.freeze()));
        due.schedule(run.runId, Long.MAX_VALUE);
    }

    /** Dead-letters the record with {@code reason} and alerts its run (when it has a usable id). */
    private void reject(Record<String, InputEvent> record, RecordMetadata meta, String runId, String reason) {
        deadLetter(record, meta, reason);
        if (runId != null) {
            context.forward(new Record<>(runId, RunAlerts.rejected(runId, Instant.ofEpochMilli(record.timestamp()),
                    reason + " (" + meta.topic() + "-" + meta.partition() + "@" + meta.offset() + ")"),
                    record.timestamp()));
        }
    }

    private void deadLetter(Record<String, InputEvent> record, RecordMetadata meta, String reason) {
        rejectedSensor.record();
        LOG.warn("dead-lettering {}-{}@{} (run {}): {}", meta.topic(), meta.partition(), meta.offset(),
                record.key() == null ? null : SampleCheck.clip(record.key()), reason);
        byte[] bytes = switch (record.value()) {
            case InputEvent.Samples s -> EventSerdes.sampleBatch().serialize(meta.topic(), s.batch());
            case InputEvent.Lifecycle l -> EventSerdes.lifecycle().serialize(meta.topic(), l.event());
            case InputEvent.Poison p -> p.bytes();
        };
        context.forward(new Record<String, DerivedEvent>(record.key(), new DerivedEvent.Rejected(bytes),
                record.timestamp(), DeadLetterHeaders.add(new RecordHeaders(), STAGE, reason, meta.topic(),
                meta.partition(), meta.offset())));
    }
}
