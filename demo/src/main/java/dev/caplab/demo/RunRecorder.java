package dev.caplab.demo;

import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.RunStatus;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.event.SummaryStats;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;

/**
 * Collects one run's lifecycle events and samples in any order and lays them out as the events an ingest adapter
 * would have published: lifecycle at its instant, samples in batches per adapter and per {@link #FLUSH_EVERY}
 * slice, never crossing a lifecycle event, so every batch precedes the step end that covers its samples.
 */
final class RunRecorder {

    /** Adapters flush at least this often; a batch never spans more. */
    static final Duration FLUSH_EVERY = Duration.ofSeconds(30);
    /** Upper bound of samples per batch, as the ingest publisher chunks them. */
    static final int MAX_SAMPLES_PER_BATCH = 1_000;

    // Ordering of events at the same instant: a step opens before its first sample and closes after its last.
    private static final int OPENS = 0;
    private static final int CLOSES = 2;

    private record Timed(long micros, int phase, int seq, SpecificRecord event) {
    }

    private record Recorded(String adapter, Sample sample) {
    }

    private final String runId;
    private final List<Timed> lifecycle = new ArrayList<>();
    private final List<Recorded> samples = new ArrayList<>();
    private final Map<Integer, StepStarted> openSteps = new LinkedHashMap<>();
    private int nextStep;
    private boolean started;
    private boolean ended;

    RunRecorder(String runId) {
        this.runId = Objects.requireNonNull(runId, "runId");
    }

    String runId() {
        return runId;
    }

    void start(RunStarted event) {
        if (started || !event.getRunId().equals(runId)) {
            throw new IllegalStateException("run " + runId + ": RunStarted twice or for " + event.getRunId());
        }
        started = true;
        add(event.getStartedAt(), OPENS - 1, event);
    }

    /** Opens the next step; returns its index. */
    int stepStarted(Instant at, Map<String, Double> load, Duration warmup) {
        int index = nextStep++;
        StepStarted event = new StepStarted(runId, index, new LinkedHashMap<>(load), at, micros(warmup));
        openSteps.put(index, event);
        add(at, OPENS, event);
        return index;
    }

    void stepEnded(int index, Instant at) {
        if (openSteps.remove(index) == null) {
            throw new IllegalStateException("run " + runId + ": step " + index + " ended but is not open");
        }
        add(at, CLOSES, new StepEnded(runId, index, at));
    }

    void annotate(Instant at, String text, Map<String, String> labels) {
        add(at, CLOSES, new Annotation(runId, at, text, new LinkedHashMap<>(labels)));
    }

    void end(Instant at, RunStatus status, String reason) {
        if (!openSteps.isEmpty()) {
            throw new IllegalStateException("run " + runId + " ends with steps still open: " + openSteps.keySet());
        }
        ended = true;
        add(at, CLOSES + 1, new RunEnded(runId, at, status, reason, false));
    }

    void gauge(String adapter, Instant at, String source, String metric, double value, Map<String, String> labels) {
        sample(adapter, at, source, metric, SampleKind.GAUGE, value, labels, null);
    }

    void counter(String adapter, Instant at, String source, String metric, double value, Map<String, String> labels) {
        sample(adapter, at, source, metric, SampleKind.COUNTER, value, labels, null);
    }

    void summary(String adapter, Instant at, String source, String metric, double value, Map<String, String> labels,
            SummaryStats stats) {
        sample(adapter, at, source, metric, SampleKind.SUMMARY, value, labels, Objects.requireNonNull(stats, "stats"));
    }

    /** A sample an adapter made (the demo's Locust files, read by ingest's Locust adapter). */
    void sample(String adapter, Sample made) {
        sample(adapter, made.getTimestamp(), made.getSource(), made.getMetric(), made.getKind(), made.getValue(),
                made.getLabels().entrySet().stream().collect(java.util.stream.Collectors.toMap(
                        e -> e.getKey().toString(), e -> e.getValue().toString(), (a, b) -> b, LinkedHashMap::new)),
                made.getSummary());
    }

    private void sample(String adapter, Instant at, String source, String metric, SampleKind kind, double value,
            Map<String, String> labels, SummaryStats stats) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("run " + runId + ": " + metric + " of " + source + " at " + at
                    + " is not finite: " + value);
        }
        samples.add(new Recorded(adapter,
                new Sample(at, source, metric, kind, value, new LinkedHashMap<>(labels), stats)));
    }

    private void add(Instant at, int phase, SpecificRecord event) {
        lifecycle.add(new Timed(micros(at), phase, lifecycle.size(), event));
    }

    DemoRun build() {
        if (!started || !ended) {
            throw new IllegalStateException("run " + runId + " must be started and ended before it is built");
        }
        List<Timed> ordered = new ArrayList<>(lifecycle);
        ordered.sort(Comparator.comparingLong(Timed::micros).thenComparingInt(Timed::phase).thenComparingInt(Timed::seq));
        List<Recorded> bySampleTime = new ArrayList<>(samples);
        bySampleTime.sort(Comparator.comparingLong(r -> micros(r.sample().getTimestamp())));
        List<SpecificRecord> events = new ArrayList<>();
        int next = 0;
        for (Timed marker : ordered) {
            // samples strictly before an opening marker, or at or before a closing one, come first
            int upTo = next;
            while (upTo < bySampleTime.size() && belongsBefore(bySampleTime.get(upTo), marker)) {
                upTo++;
            }
            flush(bySampleTime.subList(next, upTo), events);
            next = upTo;
            events.add(marker.event());
        }
        if (next != bySampleTime.size()) {
            throw new IllegalStateException("run " + runId + " has " + (bySampleTime.size() - next)
                    + " samples after RunEnded");
        }
        return new DemoRun(runId, events);
    }

    private static boolean belongsBefore(Recorded r, Timed marker) {
        long t = micros(r.sample().getTimestamp());
        return marker.phase() <= OPENS ? t < marker.micros() : t <= marker.micros();
    }

    /** One batch per adapter per flush slice, receivedAt = its newest sample, chunked to the batch limit. */
    private void flush(List<Recorded> segment, List<SpecificRecord> into) {
        long sliceMicros = micros(FLUSH_EVERY);
        int from = 0;
        while (from < segment.size()) {
            long slice = Math.floorDiv(micros(segment.get(from).sample().getTimestamp()), sliceMicros);
            int to = from;
            Map<String, List<Sample>> byAdapter = new LinkedHashMap<>();
            while (to < segment.size()
                    && Math.floorDiv(micros(segment.get(to).sample().getTimestamp()), sliceMicros) == slice) {
                byAdapter.computeIfAbsent(segment.get(to).adapter(), a -> new ArrayList<>()).add(segment.get(to).sample());
                to++;
            }
            for (Map.Entry<String, List<Sample>> e : byAdapter.entrySet()) {
                List<Sample> all = e.getValue();
                for (int c = 0; c < all.size(); c += MAX_SAMPLES_PER_BATCH) {
                    List<Sample> chunk = List.copyOf(all.subList(c, Math.min(all.size(), c + MAX_SAMPLES_PER_BATCH)));
                    into.add(new SampleBatch(runId, e.getKey(), chunk.getLast().getTimestamp(), new ArrayList<>(chunk)));
                }
            }
            from = to;
        }
    }

    static long micros(Instant at) {
        return Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000L), at.getNano() / 1_000);
    }

    static long micros(Duration d) {
        return d.toNanos() / 1_000;
    }
}
