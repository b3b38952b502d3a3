package dev.caplab.sink.it;

import dev.caplab.broker.CommittedRecords;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;
import org.apache.avro.specific.SpecificRecord;

/**
 * The oracle of the fault test, in the manner of Kafka's EOS test driver: everything that was committed to a topic,
 * read with {@code isolation.level=read_committed} up to the end offsets, and the figures recomputed from it with
 * no production code (step windows straight from StepStarted/StepEnded, warm-up by timestamp).
 */
final class CommittedInput {

    /** One (run, step, source, metric) series; see {@link #BASELINE}. */
    record Key(String runId, int step, String source, String metric) {
    }

    /** The step index of the pre-test baseline: samples before the first step starts. */
    static final int BASELINE = -1;

    /**
     * What the store must hold for a key: sample count, warm-up count, and for gauges the sum, min and max of the
     * samples after warm-up (of all of them when every sample was in the warm-up).
     */
    record Expected(SampleKind kind, long count, long warmupCount, double sum, double min, double max) {
    }

    /** A key's samples so far: counts, and sum, min and max of the steady ones and of all. */
    private record Tally(SampleKind kind, long count, long warmupCount, double steadySum, double steadyMin,
                         double steadyMax, double allSum, double allMin, double allMax) {

        static Tally of(Sample s, boolean warmup) {
            double v = s.getValue();
            return warmup
                    ? new Tally(s.getKind(), 1, 1, 0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, v, v, v)
                    : new Tally(s.getKind(), 1, 0, v, v, v, v, v, v);
        }

        Tally merge(Tally o) {
            return new Tally(kind, count + o.count, warmupCount + o.warmupCount, steadySum + o.steadySum,
                    Math.min(steadyMin, o.steadyMin), Math.max(steadyMax, o.steadyMax), allSum + o.allSum,
                    Math.min(allMin, o.allMin), Math.max(allMax, o.allMax));
        }

        Expected expected() {
            boolean anySteady = count > warmupCount;
            return new Expected(kind, count, warmupCount, anySteady ? steadySum : allSum,
                    anySteady ? steadyMin : allMin, anySteady ? steadyMax : allMax);
        }
    }

    private record Window(Instant start, Instant steadyFrom, Instant end) {
    }

    private final List<SampleBatch> batches = new ArrayList<>();
    private final Map<String, Map<Integer, Window>> steps = new HashMap<>();

    private CommittedInput() {
    }

    /** Reads caplab.runs and caplab.samples as committed. */
    static CommittedInput read(String bootstrap) {
        CommittedInput in = new CommittedInput();
        Map<String, Map<Integer, StepStarted>> started = new HashMap<>();
        Map<String, Map<Integer, StepEnded>> ended = new HashMap<>();
        for (SpecificRecord e : committed(bootstrap, TopicCatalog.RUNS, (t, b) -> EventSerdes.lifecycle()
                .deserialize(t, b))) {
            switch (e) {
                case StepStarted s -> started.computeIfAbsent(s.getRunId().toString(), k -> new HashMap<>())
                        .put(s.getStepIndex(), s);
                case StepEnded s -> ended.computeIfAbsent(s.getRunId().toString(), k -> new HashMap<>())
                        .put(s.getStepIndex(), s);
                default -> {
                }
            }
        }
        started.forEach((run, byIndex) -> {
            Map<Integer, Window> windows = in.steps.computeIfAbsent(run, k -> new TreeMap<>());
            byIndex.forEach((i, s) -> windows.put(i, new Window(s.getStartedAt(), s.getStartedAt()
                    .plus(s.getWarmupMicros(), ChronoUnit.MICROS), ended.get(run).get(i).getEndedAt())));
            Instant first = byIndex.values().stream().map(StepStarted::getStartedAt).min(Instant::compareTo)
                    .orElseThrow();
            windows.put(BASELINE, new Window(Instant.MIN, Instant.MIN, first));
        });
        in.batches.addAll(committed(bootstrap, TopicCatalog.SAMPLES, (t, b) -> EventSerdes.sampleBatch()
                .deserialize(t, b)));
        return in;
    }

    /** Every committed record of {@code topic}, decoded, up to the end offsets at the time of the call. */
    static <T> List<T> committed(String bootstrap, String topic, BiFunction<String, byte[], T> decoder) {
        return CommittedRecords.read(bootstrap, topic, Duration.ofSeconds(30)).stream()
                .map(r -> decoder.apply(r.topic(), r.value())).toList();
    }

    /** Samples committed per run. */
    Map<String, Long> samplesPerRun() {
        Map<String, Long> out = new TreeMap<>();
        batches.forEach(b -> out.merge(b.getRunId().toString(), (long) b.getSamples().size(), Long::sum));
        return out;
    }

    /** One committed sample as the samples table holds it: series, timestamp in microseconds, value. */
    record StoredSample(String runId, String source, String metric, long tsMicros, double value) {
    }

    /** Every committed sample with how often it was committed (once, unless an input repeats one). */
    Map<StoredSample, Long> samples() {
        Map<StoredSample, Long> out = new HashMap<>();
        for (SampleBatch b : batches) {
            for (Sample s : b.getSamples()) {
                Instant t = s.getTimestamp();
                out.merge(new StoredSample(b.getRunId().toString(), s.getSource().toString(), s.getMetric().toString(),
                        ChronoUnit.MICROS.between(Instant.EPOCH, t), s.getValue()), 1L, Long::sum);
            }
        }
        return out;
    }

    /** Per-step figures per (run, step, source, metric), from the declared step windows. */
    Map<Key, Expected> stepAggregates() {
        Map<Key, Tally> tallies = new HashMap<>();
        for (SampleBatch b : batches) {
            String run = b.getRunId().toString();
            for (Sample s : b.getSamples()) {
                steps.getOrDefault(run, Map.of()).forEach((index, w) -> {
                    Instant t = s.getTimestamp();
                    if (!t.isBefore(w.start()) && t.isBefore(w.end())) {
                        tallies.merge(new Key(run, index, s.getSource().toString(), s.getMetric().toString()),
                                Tally.of(s, t.isBefore(w.steadyFrom())), Tally::merge);
                    }
                });
            }
        }
        Map<Key, Expected> out = new HashMap<>();
        tallies.forEach((k, t) -> out.put(k, t.expected()));
        return out;
    }
}
