package dev.caplab.streams.run;

import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.streams.Micros;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.aggregate.BufferedSample;
import dev.caplab.streams.input.DeadLetterHeaders;
import dev.caplab.streams.input.InputEvent;
import dev.caplab.streams.step.LevelChanges;
import dev.caplab.streams.step.LevelPoint;
import dev.caplab.streams.step.StepWindow;
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
 * The per-run state machine: buffers samples by event time, tracks lifecycle and load level, and closes steps in
 * order once event time (or wall clock, for the last step) has passed their end plus grace. Keyed by run id; the
 * runs and samples topics are co-partitioned, so one task owns a run.
 *
 * <p>One bad run never stops the others: an input the run cannot take (blank run id, a sample beyond
 * {@link RunLimits}, a record that would overflow the state bound) or any exception while processing it is
 * dead-lettered with the reason, the run is alerted ({@link RunAlerts}), and the next record is processed. A run's
 * state and buffer are deleted {@link TopologySettings#allowedLateness()} after it ended; a run without input for
 * that long is ended at its last sample first.
 */
public final class RunProcessor implements Processor<String, InputEvent, String, DerivedEvent> {

    /** Late samples (after their step closed) are counted in this sensor's {@code late-samples-total}. */
    public static final String LATE_SAMPLES_OPERATION = "late-samples";
    /** Input records dead-lettered by the run processor are counted in this sensor's {@code rejected-records-total}. */
    public static final String REJECTED_OPERATION = "rejected-records";
    public static final String METRICS_SCOPE = "caplab";
    private static final String STAGE = "run-processor";
    private static final Logger LOG = LoggerFactory.getLogger(RunProcessor.class);

    private final TopologySettings settings;
    private final RunLimits limits;
    private final String runStateStore;
    private final String bufferStore;
    private final String inferredStore;
    private final String measuredStore;
    private final DueIndex due = new DueIndex();
    private ProcessorContext<String, DerivedEvent> context;
    private RunStateStore runs;
    private SampleBuffer buffer;
    private StepCloser closer;
    private InferredRuns inferred;
    private MeasuredCeilings measured;
    private Sensor lateSensor;
    private Sensor rejectedSensor;

    public RunProcessor(TopologySettings settings, String runStateStore, String bufferStore, String inferredStore,
            String measuredStore) {
        this.settings = settings;
        this.limits = settings.limits();
        this.runStateStore = runStateStore;
        this.bufferStore = bufferStore;
        this.inferredStore = inferredStore;
        this.measuredStore = measuredStore;
    }

    @Override
    public void init(ProcessorContext<String, DerivedEvent> context) {
        this.context = context;
        this.runs = new RunStateStore(context.getStateStore(runStateStore), limits);
        this.buffer = new SampleBuffer(context.getStateStore(bufferStore));
        this.measured = new MeasuredCeilings(context.getStateStore(measuredStore)); // hook (issue 16)
        this.closer = new StepCloser(buffer, settings, measured);
        this.inferred = new InferredRuns(context.getStateStore(inferredStore), settings); // hook (issue 16)
        this.lateSensor = context.metrics().addRateTotalSensor(METRICS_SCOPE, context.taskId().toString(),
                LATE_SAMPLES_OPERATION, Sensor.RecordingLevel.INFO);
        this.rejectedSensor = context.metrics().addRateTotalSensor(METRICS_SCOPE, context.taskId().toString(),
                REJECTED_OPERATION, Sensor.RecordingLevel.INFO);
        long now = context.currentSystemTimeMs();
        // Once per task start (stores are restored by then): later punctuations visit only the runs due.
        runs.forEach((runId, state) -> due.schedule(runId, state == null ? Long.MAX_VALUE : nextDue(state.toMutable(),
                now)));
        context.schedule(settings.punctuateInterval(), PunctuationType.WALL_CLOCK_TIME, this::punctuate);
    }

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
        run.lastInputWallMillis = now;
        List<DerivedEvent> alerts = new ArrayList<>();
        List<BufferedSample> buffered = List.of();
        switch (record.value()) {
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
            buffer.add(runId, buffered, meta.partition(), meta.offset());
        }
        alerts.addAll(inferred.onInput(run, record.value())); // hook (issue 16): inferred start, ends repeated
        measured.onInput(runId, record.value()); // hook (issue 16): an iperf3 report's egress ceiling
        advance(run, now, record.timestamp(), true, alerts);
    }

    // Only samples advance a run's event time: lifecycle is small and often processed ahead of the samples it
    // brackets (a controller's StepEnded overtakes the host sampler's last batch), and a step closed on lifecycle
    // time would be judged without those samples. The wall-clock fallback closes a run whose samples stopped.
    private void onLifecycle(RunState.Mutable run, SpecificRecord event, long nowMillis) {
        switch (event) {
            case RunStarted r -> {
                if (InferredStart.declared(r)) { // hook (issue 16): our own inferred start, echoed, is no declaration
                    run.started = r;
                }
            }
            case StepStarted s -> {
                Map<String, Double> load = new TreeMap<>();
                long start = Micros.of(s.getStartedAt());
                s.getLoad().forEach((k, v) -> load.put(k.toString(), v));
                StepWindow previous = run.declared.get(s.getStepIndex());
                long end = previous == null ? StepWindow.OPEN : previous.endMicros();
                run.declared.put(s.getStepIndex(), new StepWindow(s.getStepIndex(), load, start,
                        end == StepWindow.OPEN ? end : Math.max(end, start), s.getWarmupMicros(), false));
            }
            case StepEnded e -> {
                StepWindow w = run.declared.get(e.getStepIndex());
                if (w == null) {
                    LOG.warn("run {}: StepEnded for step {} that never started; ignored for step assignment",
                            run.runId, e.getStepIndex());
                } else {
                    run.declared.put(w.index(), w.endingAt(Micros.of(e.getEndedAt())));
                    run.endSeenWallMillis.put(w.index(), nowMillis);
                }
            }
            case RunEnded e -> {
                run.runEndedMicros = Micros.of(e.getEndedAt());
                run.runEndSeenWallMillis = nowMillis;
            }
            default -> {
                // Annotations do not affect aggregation; the sink stores them.
            }
        }
    }

    /** The batch's samples within limits, to buffer; the others are left out, the batch dead-lettered with why. */
    private List<BufferedSample> onSamples(RunState.Mutable run, InputEvent.Samples batch,
            Record<String, InputEvent> record, RecordMetadata meta, List<DerivedEvent> alerts) {
        long horizon = closedHorizon(run);
        List<Sample> samples = batch.batch().getSamples();
        List<BufferedSample> buffered = new ArrayList<>(samples.size());
        int leftOut = 0;
        String firstProblem = null;
        for (Sample s : samples) {
            Optional<String> problem = SampleCheck.problem(s, limits);
            if (problem.isPresent()) {
                leftOut++;
                firstProblem = firstProblem == null ? problem.get() : firstProblem;
                continue;
            }
            buffered.add(BufferedSample.of(s));
            long t = Micros.of(s.getTimestamp());
            String metric = s.getMetric().toString();
            if (run.declared.isEmpty() && settings.loadLevelMetrics().contains(metric)
                    && LevelChanges.add(run.levels, new LevelPoint(metric, t, s.getValue()), limits.maxLevelChanges())
                    == LevelChanges.Added.FULL && run.firstTimeReached(RunState.Limit.LEVEL_CHANGES)) {
                alerts.add(RunAlerts.limit(run.runId, s.getTimestamp(), "more than " + limits.maxLevelChanges()
                        + " load-level changes; later changes are ignored for step inference"));
            }
            if (t < horizon) {
                run.lateSamples++;
                lateSensor.record();
                run.unassignedDirty |= run.runClosed;
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

    /** Samples before this instant can no longer be placed in a step: everything up to the last closed step's end. */
    private long closedHorizon(RunState.Mutable run) {
        if (run.runClosed) {
            return Long.MAX_VALUE;
        }
        if (run.closedSteps == 0) {
            return Long.MIN_VALUE;
        }
        List<StepWindow> timeline = Timeline.of(run, settings);
        return timeline.get(Math.min(run.closedSteps, timeline.size()) - 1).endMicros();
    }

    private void advance(RunState.Mutable run, long nowMillis, long timestamp, boolean changed,
            List<DerivedEvent> alerts) {
        List<DerivedEvent> out = new ArrayList<>(alerts);
        List<StepWindow> timeline = Timeline.of(run, settings);
        long graceMillis = settings.grace().toMillis();
        while (run.closedSteps < timeline.size()) {
            StepWindow w = timeline.get(run.closedSteps);
            if (w.isOpen()) {
                break;
            }
            long seen = Timeline.endSeenWallMillis(run, w);
            boolean eventTimeReady = run.maxEventMicros >= w.endMicros() + settings.graceMicros();
            boolean wallReady = seen >= 0 && nowMillis >= seen + graceMillis;
            if (!eventTimeReady && !wallReady) {
                break;
            }
            out.addAll(closer.close(run, w, run.closedSteps == 0));
            run.closedSteps++;
        }
        if (run.runEndedMicros >= 0 && !run.runClosed && run.closedSteps == timeline.size()) {
            boolean ready = run.maxEventMicros >= run.runEndedMicros + settings.graceMicros()
                    || nowMillis >= run.runEndSeenWallMillis + graceMillis;
            if (ready) {
                out.addAll(closer.flushUnassigned(run));
                run.runClosed = true;
            }
        } else if (run.runClosed && run.unassignedDirty) {
            out.addAll(closer.flushUnassigned(run));
        }
        if (changed || !out.isEmpty()) {
            runs.put(run.runId, withinBound(run, out));
        }
        due.schedule(run.runId, nextDue(run, nowMillis));
        for (DerivedEvent e : out) {
            context.forward(new Record<>(run.runId, e, timestamp));
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
        if (run.runClosed) {
            return run.unassignedDirty ? nowMillis : run.runEndSeenWallMillis + lateness;
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
        if (run.runEndedMicros < 0) {
            long lastInput = run.lastInputWallMillis > 0 ? run.lastInputWallMillis : nowMillis;
            next = Math.min(next, lastInput + inferred.idleEnd(run).toMillis()); // hook (issue 16)
        }
        return next;
    }

    private void punctuate(long nowMillis) {
        for (String runId : due.due(nowMillis)) {
            try {
                RunState stored = runs.get(runId);
                if (stored == null) {
                    due.schedule(runId, Long.MAX_VALUE);
                    continue;
                }
                RunState.Mutable run = stored.toMutable();
                long lateness = settings.allowedLateness().toMillis();
                if (run.runClosed && !run.unassignedDirty && nowMillis >= run.runEndSeenWallMillis + lateness) {
                    expire(runId);
                    continue;
                }
                boolean changed = false;
                List<DerivedEvent> ended = List.of();
                if (run.lastInputWallMillis == 0) {
                    run.lastInputWallMillis = nowMillis; // state from before input times were kept
                    changed = true;
                } else if (run.runEndedMicros < 0
                        && nowMillis >= run.lastInputWallMillis + inferred.idleEnd(run).toMillis()) { // hook (16)
                    LOG.info("run {}: no input for {}, ended at its last sample", runId, inferred.idleEnd(run));
                    run.runEndedMicros = run.maxEventMicros;
                    run.runEndSeenWallMillis = nowMillis - settings.grace().toMillis();
                    changed = true;
                    ended = inferred.endedIdle(run); // hook (issue 16): the RunEnded the runs table gets
                }
                advance(run, nowMillis, nowMillis, changed, ended);
            } catch (RuntimeException e) {
                // Left unscheduled until its next input, so one broken run is not retried every second.
                due.schedule(runId, Long.MAX_VALUE);
                LOG.error("run {}: closing on the wall clock failed; the run waits for its next input", runId, e);
                context.forward(new Record<>(runId, RunAlerts.limit(runId, Instant.ofEpochMilli(nowMillis),
                        "closing steps failed: " + e), nowMillis));
            }
        }
    }

    /** The run ended more than the allowed lateness ago: its state and buffered samples are deleted. */
    private void expire(String runId) {
        inferred.forget(runId); // hook (issue 16)
        measured.forget(runId); // hook (issue 16)
        buffer.deleteRun(runId);
        runs.delete(runId);
        due.schedule(runId, Long.MAX_VALUE);
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
