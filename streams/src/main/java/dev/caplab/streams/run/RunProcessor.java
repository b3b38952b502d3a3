package dev.caplab.streams.run;

import dev.caplab.streams.Micros;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.aggregate.BufferedSample;
import dev.caplab.streams.input.InputEvent;
import dev.caplab.streams.step.LevelPoint;
import dev.caplab.streams.step.StepWindow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-run state machine: buffers samples by event time, tracks lifecycle and load level, and closes steps in
 * order once event time (or wall clock, for the last step) has passed their end plus grace. Keyed by run id; the
 * runs and samples topics are co-partitioned, so one task owns a run.
 */
public final class RunProcessor implements Processor<String, InputEvent, String, DerivedEvent> {

    /** Late samples (after their step closed) are counted in this sensor's {@code late-samples-total}. */
    public static final String LATE_SAMPLES_OPERATION = "late-samples";
    public static final String METRICS_SCOPE = "caplab";
    private static final Logger LOG = LoggerFactory.getLogger(RunProcessor.class);

    private final TopologySettings settings;
    private final String runStateStore;
    private final String bufferStore;
    private ProcessorContext<String, DerivedEvent> context;
    private KeyValueStore<String, RunState> runs;
    private SampleBuffer buffer;
    private StepCloser closer;
    private Sensor lateSensor;

    public RunProcessor(TopologySettings settings, String runStateStore, String bufferStore) {
        this.settings = settings;
        this.runStateStore = runStateStore;
        this.bufferStore = bufferStore;
    }

    @Override
    public void init(ProcessorContext<String, DerivedEvent> context) {
        this.context = context;
        this.runs = context.getStateStore(runStateStore);
        this.buffer = new SampleBuffer(context.getStateStore(bufferStore));
        this.closer = new StepCloser(buffer, settings);
        this.lateSensor = context.metrics().addRateTotalSensor(METRICS_SCOPE, context.taskId().toString(),
                LATE_SAMPLES_OPERATION, Sensor.RecordingLevel.INFO);
        context.schedule(settings.punctuateInterval(), PunctuationType.WALL_CLOCK_TIME, this::punctuate);
    }

    @Override
    public void process(Record<String, InputEvent> record) {
        String runId = record.key();
        if (runId == null) {
            throw new IllegalStateException("record without run id key on " + context.recordMetadata()
                    .map(m -> m.topic() + "-" + m.partition() + "@" + m.offset()).orElse("?"));
        }
        RunState stored = runs.get(runId);
        RunState.Mutable run = (stored == null ? RunState.empty(runId) : stored).toMutable();
        long now = context.currentSystemTimeMs();
        switch (record.value()) {
            case InputEvent.Lifecycle l -> onLifecycle(run, l.event(), now);
            case InputEvent.Samples s -> onSamples(run, s, context.recordMetadata().orElseThrow());
            case InputEvent.Poison p -> throw new IllegalStateException("poison reached the run processor: "
                    + p.reason());
        }
        advance(run, now, record.timestamp(), true);
    }

    // Only samples advance a run's event time: lifecycle is small and often processed ahead of the samples it
    // brackets (a controller's StepEnded overtakes the host sampler's last batch), and a step closed on lifecycle
    // time would be judged without those samples. The wall-clock fallback closes a run whose samples stopped.
    private void onLifecycle(RunState.Mutable run, SpecificRecord event, long nowMillis) {
        switch (event) {
            case RunStarted r -> {
                run.started = r;
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

    private void onSamples(RunState.Mutable run, InputEvent.Samples batch, RecordMetadata meta) {
        long horizon = closedHorizon(run);
        List<Sample> samples = batch.batch().getSamples();
        List<BufferedSample> buffered = new ArrayList<>(samples.size());
        for (Sample s : samples) {
            buffered.add(BufferedSample.of(s));
            long t = Micros.of(s.getTimestamp());
            String metric = s.getMetric().toString();
            if (run.declared.isEmpty() && settings.loadLevelMetrics().contains(metric)) {
                run.levels.add(new LevelPoint(metric, t, s.getValue()));
            }
            if (t < horizon) {
                run.lateSamples++;
                lateSensor.record();
                run.unassignedDirty |= run.runClosed;
            }
            run.observeEventTime(t);
        }
        buffer.add(run.runId, buffered, meta.partition(), meta.offset());
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

    private void advance(RunState.Mutable run, long nowMillis, long timestamp, boolean changed) {
        List<DerivedEvent> out = new ArrayList<>();
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
            runs.put(run.runId, run.freeze());
        }
        for (DerivedEvent e : out) {
            context.forward(new Record<>(run.runId, e, timestamp));
        }
    }

    private void punctuate(long nowMillis) {
        List<RunState> open = new ArrayList<>();
        try (KeyValueIterator<String, RunState> it = runs.all()) {
            while (it.hasNext()) {
                KeyValue<String, RunState> kv = it.next();
                if (!kv.value.runClosed() || kv.value.unassignedDirty()) {
                    open.add(kv.value);
                }
            }
        }
        for (RunState s : open) {
            advance(s.toMutable(), nowMillis, nowMillis, false);
        }
    }
}
