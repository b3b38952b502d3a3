package dev.caplab.streams.run;

import dev.caplab.schema.limits.SampleProblem;
import dev.caplab.schema.limits.SampleShape;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.input.InputEvent;
import dev.caplab.streams.step.StepWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-run state machine, keyed by run id (the runs and samples topics are co-partitioned, so one task owns a
 * run). It coordinates named stages, in this order:
 * <ol>
 *   <li>input: {@link StepBoundaries} (lifecycle: declared start, step windows, ends) or {@link SampleAdmission}
 *       (samples within {@link RunLimits}) then {@link StepAssignment} (level changes, late marks, event time), the
 *       admitted samples folded into per-second partials ({@link PartialStore});</li>
 *   <li>closing, in index order, each step that is due ({@link Deadlines}): {@link StepClosing} — its
 *       {@link StepAggregation}, {@link StepJudging} and fit points — the {@link OutsideSteps baseline} before the
 *       first; then the throttled {@link Amendments} of what late samples changed; then the run itself;</li>
 *   <li>{@link Fitting} (one refit for the steps closed or amended together, when their fit points changed) and
 *       {@link Concluding} (the run conclusion);</li>
 *   <li>the state stored within bound ({@link StateBound}) and the run's next wall-clock deadline scheduled; on the
 *       wall clock, runs due are advanced the same way, idle runs ended and old ones expired ({@link Expiry}).</li>
 * </ol>
 * A step is computed from the partials, never consumed, so a late sample re-emits it (and the run's fits) at a higher
 * revision, and a lifecycle event that redefines a closed step re-closes it: the result depends on what the run
 * received, not on the order it came in.
 *
 * <p>One bad run never stops the others: an input the run cannot take (blank run id, a sample beyond
 * {@link RunLimits}, a record that would overflow the state bound) or any exception while processing it is
 * dead-lettered with the reason ({@link DeadLetters}), the run is alerted, and the next record is processed.
 */
public final class RunProcessor implements Processor<String, InputEvent, String, DerivedEvent> {

    /** Late samples (after their step closed, or beyond the allowed lateness) are counted in this sensor's {@code late-samples-total}. */
    public static final String LATE_SAMPLES_OPERATION = "late-samples";
    /** Input records dead-lettered by the run processor are counted in this sensor's {@code rejected-records-total}. */
    public static final String REJECTED_OPERATION = "rejected-records";
    public static final String METRICS_SCOPE = "caplab";
    private static final Logger LOG = LoggerFactory.getLogger(RunProcessor.class);
    private static final Duration CLOSE_TICK = Duration.ofMillis(200);

    private final TopologySettings settings;
    private final RunLimits limits;
    private final SampleShape shape;
    private final String runStateStore;
    private final String partialsStore;
    private final String inferredStore;
    private final String measuredStore;
    private final DueIndex due = new DueIndex();
    private ProcessorContext<String, DerivedEvent> context;
    private RunStateStore runs;
    private PartialStore partials;
    private InferredRuns inferred;
    private MeasuredCeilings measured;
    private SamplesCatchUp samplesCatchUp;
    private Sensor lateSensor;
    private DeadLetters deadLetters;
    private StepBoundaries boundaries;
    private SampleAdmission admission;
    private StepAssignment assignment;
    private StepClosing closing;
    private OutsideSteps outside;
    private Amendments amendments;
    private Fitting fitting;
    private Concluding concluding;
    private Deadlines deadlines;
    private Expiry expiry;
    private StateBound bound;

    public RunProcessor(TopologySettings settings, String runStateStore, String partialsStore, String inferredStore,
            String measuredStore) {
        this.settings = settings;
        this.limits = settings.limits();
        this.shape = new SampleShape(limits.sample());
        this.runStateStore = runStateStore;
        this.partialsStore = partialsStore;
        this.inferredStore = inferredStore;
        this.measuredStore = measuredStore;
    }

    @Override
    public void init(ProcessorContext<String, DerivedEvent> context) {
        this.context = context;
        long now = context.currentSystemTimeMs();
        runs = new RunStateStore(context.getStateStore(runStateStore), limits);
        partials = new PartialStore(context.getStateStore(partialsStore));
        inferred = new InferredRuns(context.getStateStore(inferredStore), settings);
        measured = new MeasuredCeilings(context.getStateStore(measuredStore));
        samplesCatchUp = new SamplesCatchUp(now);
        lateSensor = sensor(LATE_SAMPLES_OPERATION);
        deadLetters = new DeadLetters(context, sensor(REJECTED_OPERATION));
        boundaries = new StepBoundaries(settings);
        admission = new SampleAdmission(limits);
        assignment = new StepAssignment(settings);
        fitting = new Fitting(partials, settings, measured);
        closing = new StepClosing(new StepAggregation(partials, settings), new StepJudging(settings, measured),
                fitting);
        outside = new OutsideSteps(partials, settings);
        amendments = new Amendments(settings, outside, closing);
        concluding = new Concluding(partials, settings, measured);
        deadlines = new Deadlines(settings, samplesCatchUp, inferred, amendments);
        expiry = new Expiry(settings, runs, partials, samplesCatchUp, inferred, measured);
        bound = new StateBound(limits);
        // Once per task start (stores are restored by then): later punctuations visit only the runs due.
        runs.forEach((runId, state) -> due.schedule(runId, state == null ? Long.MAX_VALUE
                : deadlines.next(state.toMutable(), now)));
        context.schedule(tick(settings), PunctuationType.WALL_CLOCK_TIME, this::punctuate);
    }

    private Sensor sensor(String operation) {
        return context.metrics().addRateTotalSensor(METRICS_SCOPE, context.taskId().toString(), operation,
                Sensor.RecordingLevel.INFO);
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

    @Override
    public void process(Record<String, InputEvent> record) {
        RecordMetadata meta = context.recordMetadata().orElseThrow();
        String runId = record.key();
        if (runId == null || runId.isBlank()) {
            deadLetters.reject(record, meta, null, "blank or missing run id key");
            return;
        }
        Optional<SampleProblem> longId = shape.nameProblem("run id", runId);
        if (longId.isPresent()) {
            deadLetters.reject(record, meta, null, longId.get().toString());
            return;
        }
        try {
            processRun(runId, record, meta);
        } catch (RuntimeException e) {
            if (TaskFailures.ofTheTask(e)) {
                throw e;
            }
            LOG.error("run {}: processing {}-{}@{} failed; the record is dead-lettered, the run alerted", runId,
                    meta.topic(), meta.partition(), meta.offset(), e);
            deadLetters.reject(record, meta, runId, "processing failed: " + e);
        }
    }

    private void processRun(String runId, Record<String, InputEvent> record, RecordMetadata meta) {
        RunState stored = runs.get(runId);
        RunState.Mutable run = (stored == null ? RunState.empty(runId) : stored).toMutable();
        long now = context.currentSystemTimeMs();
        run.lastInputWallMillis = now;
        samplesCatchUp.observe(runId, record, now);
        List<DerivedEvent> alerts = new ArrayList<>();
        SampleAdmission.Admitted admitted = null;
        switch (record.value()) {
            case InputEvent.Lifecycle l when run.expired -> {
                // Beyond the allowed lateness: the sink stores the event; the run's derived records stay as they are.
            }
            case InputEvent.Samples s when run.expired -> {
                run.beyondLateness += s.batch().getSamples().size();
                lateSensor.record(s.batch().getSamples().size());
            }
            case InputEvent.Lifecycle l -> boundaries.apply(run, l.event(), now);
            case InputEvent.Samples s -> {
                admitted = admission.admit(s.batch().getSamples());
                int late = assignment.assign(run, admitted.samples(), alerts);
                if (late > 0) {
                    lateSensor.record(late);
                }
                admitted.leftOutReason().ifPresent(reason -> leftOut(run, record, meta, reason, alerts));
            }
            case InputEvent.Poison p -> throw new IllegalStateException("poison reached the run processor: "
                    + p.reason());
        }
        Optional<String> overflow = bound.inputOverflow(run);
        if (overflow.isPresent()) {
            deadLetters.reject(record, meta, runId, overflow.get());
            return;
        }
        if (admitted != null && !admitted.samples().isEmpty()) {
            partials.fold(runId, admitted.samples());
        }
        alerts.addAll(inferred.onInput(run, record.value())); // undeclared runs: inferred start, ends repeated
        measured.onInput(runId, record.value()); // an iperf3 report's egress ceiling
        advance(run, now, record.timestamp(), true, alerts);
    }

    /** Part of a batch was beyond the limits: the batch is dead-lettered, the run alerted once. */
    private void leftOut(RunState.Mutable run, Record<String, InputEvent> record, RecordMetadata meta, String reason,
            List<DerivedEvent> alerts) {
        deadLetters.deadLetter(record, meta, reason);
        if (run.firstTimeReached(RunState.Limit.SAMPLE_FIELDS)) {
            alerts.add(RunAlerts.rejected(run.runId, Instant.ofEpochMilli(record.timestamp()), reason
                    + " (alerted once per run; every such batch is dead-lettered)"));
        }
    }

    /** Closes what is due in {@code run}, forwards what that derived, and says whether it forwarded anything. */
    private boolean advance(RunState.Mutable run, long nowMillis, long timestamp, boolean changed,
            List<DerivedEvent> alerts) {
        List<DerivedEvent> out = new ArrayList<>(alerts);
        List<StepWindow> timeline = Timeline.of(run, settings);
        StepClosing.reopenRedefined(run, timeline);
        out.addAll(closing.dropVanished(run, timeline));
        boolean samplesRead = deadlines.samplesRead(run, nowMillis);
        StepWindow lastClosed = null;
        while (run.closedSteps < timeline.size()) {
            StepWindow w = timeline.get(run.closedSteps);
            if (w.isOpen() || !deadlines.stepDue(run, w, nowMillis, samplesRead)) {
                break;
            }
            if (run.closedSteps == 0) {
                out.addAll(outside.baseline(run, w.startMicros(), new boolean[1]));
            }
            out.addAll(closing.close(run, w));
            run.closedSteps++;
            lastClosed = w;
        }
        if (lastClosed != null && run.fitPointsChanged) {
            // one refit for all the steps closed together, as for steps amended together: the fits a reader sees
            // once this output commits are those over all of them
            out.addAll(refit(run, lastClosed));
        }
        if (amendments.due(run, nowMillis)) {
            out.addAll(amendments.amend(run, timeline, nowMillis));
            if (run.fitPointsChanged) {
                // one refit for all the steps amended together, stamped at the latest closed step's end
                out.addAll(refit(run, timeline.get(Math.min(run.closedSteps, timeline.size()) - 1)));
            }
        }
        if (run.runEndedMicros >= 0 && !run.runClosed && run.closedSteps == timeline.size()
                && deadlines.runDue(run, nowMillis, samplesRead)) {
            out.addAll(outside.unassigned(run, timeline));
            run.runClosed = true;
            samplesCatchUp.forget(run.runId);
            run.concludeDue = true;
        }
        if (run.concludeDue) {
            concluding.conclude(run, timeline).ifPresent(out::add);
        }
        if (changed || !out.isEmpty()) {
            runs.put(run.runId, bound.encode(run, out));
        }
        due.schedule(run.runId, deadlines.next(run, nowMillis));
        for (DerivedEvent e : out) {
            context.forward(new Record<>(run.runId, e, timestamp));
        }
        return !out.isEmpty();
    }

    private List<DerivedEvent> refit(RunState.Mutable run, StepWindow latestClosed) {
        run.fitPointsChanged = false;
        return fitting.refit(run, latestClosed);
    }

    private void punctuate(long nowMillis) {
        samplesCatchUp.tick();
        boolean emitted = false;
        for (String runId : due.due(nowMillis)) {
            try {
                emitted |= advanceOnWallClock(runId, nowMillis);
            } catch (RuntimeException e) {
                if (TaskFailures.ofTheTask(e)) {
                    throw e;
                }
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

    /** A run due on the wall clock: expired, ended when idle, or advanced; says whether anything was forwarded. */
    private boolean advanceOnWallClock(String runId, long nowMillis) {
        RunState stored = runs.get(runId);
        if (stored == null) {
            due.schedule(runId, Long.MAX_VALUE);
            return false;
        }
        RunState.Mutable run = stored.toMutable();
        if (deadlines.expiryDue(run, nowMillis)) {
            expiry.expire(run);
            due.schedule(runId, Long.MAX_VALUE);
            return false;
        }
        boolean changed = false;
        List<DerivedEvent> ended = List.of();
        if (run.lastInputWallMillis == 0) {
            run.lastInputWallMillis = nowMillis; // state from before input times were kept
            changed = true;
        } else if (deadlines.idleEndDue(run, nowMillis)) {
            expiry.endIdle(run, nowMillis);
            changed = true;
            ended = inferred.endedIdle(run); // the RunEnded the runs table gets
        }
        return advance(run, nowMillis, nowMillis, changed, ended);
    }
}
