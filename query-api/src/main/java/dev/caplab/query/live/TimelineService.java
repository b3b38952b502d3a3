package dev.caplab.query.live;

import dev.caplab.store.access.DeletedRunRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.access.RunSteps;
import dev.caplab.analysis.throughput.TrafficMetrics;
import dev.caplab.query.runs.RunNotFoundException;
import dev.caplab.store.row.RunRow;
import dev.caplab.store.row.RunStep;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.store.access.RunActivityRepository;
import dev.caplab.store.access.RunActivityRepository.Bucket;
import dev.caplab.store.access.RunActivityRepository.SeriesBucket;
import dev.caplab.store.access.RunActivityRepository.SeriesRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.springframework.stereotype.Service;

/**
 * A run's time series ({@link RunTimeline}) over its raw samples: ClickHouse buckets the points of the series that
 * matter (which those are is {@link TrafficMetrics}'s to say), this class only turns counts into rates and counter
 * totals into increases. Requests come from per-request latency samples when the run has any (their count, their
 * exact p95, failures by label or k6's 0/1 flags), else from request counters (a tool's total row and its
 * per-endpoint rows counted once), else from the counts of a tool's own windows (JMeter's backend listener), the
 * last two with the median of the tool's own window p95s; load from the load-level gauges,
 * else from the steps.
 */
@Service
public class TimelineService {

    /** Metrics whose level is the load (those streams infers steps from by default). */
    static final Set<String> LOAD_LEVEL_METRICS = Set.copyOf(MetricNames.DEFAULT_LOAD_LEVELS);
    /** Bucket widths the automatic choice picks from, seconds. */
    static final List<Integer> BUCKETS = List.of(5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600);
    /** The automatic bucket keeps a run to about this many points. */
    static final int MAX_POINTS = 150;
    static final int MAX_BUCKET_SECONDS = 3600;

    private final RunRepository runs;
    private final DeletedRunRepository deletions;
    private final RunSteps steps;
    private final RunActivityRepository samples;

    TimelineService(RunRepository runs, DeletedRunRepository deletions, RunSteps steps,
            RunActivityRepository samples) {
        this.runs = runs;
        this.deletions = deletions;
        this.steps = steps;
        this.samples = samples;
    }

    /** The run's timeline at {@code bucketSeconds}, or at a bucket chosen from its length when null. */
    public RunTimeline of(String runId, Integer bucketSeconds) {
        RunRow run = RunNotFoundException.require(runId, runs, deletions);
        int bucket = bucketSeconds != null ? bucketSeconds : autoBucket(run);
        List<SeriesRef> series = samples.series(runId, Stream.of(TrafficMetrics.LATENCY_PER_REQUEST_MS,
                TrafficMetrics.FAILURE_FLAGS, TrafficMetrics.REQUEST_COUNTERS, TrafficMetrics.FAILURE_COUNTERS,
                TrafficMetrics.REQUEST_WINDOW_SUMMARIES, TrafficMetrics.REQUEST_WINDOW_COUNTS,
                TrafficMetrics.FAILURE_WINDOW_COUNTS, LOAD_LEVEL_METRICS).flatMap(Set::stream).collect(Collectors.toCollection(TreeSet::new)));
        Map<Long, Traffic> traffic = new TreeMap<>();
        List<Long> latency = ids(series, s -> gauge(s) && TrafficMetrics.LATENCY_PER_REQUEST_MS.contains(s.metric()));
        String requestSource = null;
        if (!latency.isEmpty()) {
            requestSource = "per-request latency samples";
            perRequest(runId, bucket, series, latency, traffic);
        } else if (fromCounters(runId, bucket, series, traffic)) {
            requestSource = "request counters";
            toolWindows(runId, bucket, series, traffic);
        } else if (fromWindowCounts(runId, bucket, series, traffic)) {
            requestSource = "tool window counts";
            toolWindows(runId, bucket, series, traffic);
        }
        Map<Long, Double> load = new TreeMap<>();
        String loadSource = loadFromGauges(runId, bucket, series, load);
        if (loadSource == null) {
            loadSource = loadFromSteps(runId, bucket, traffic.keySet(), load);
        }
        TreeSet<Long> at = new TreeSet<>(traffic.keySet());
        at.addAll(load.keySet());
        List<TimelinePoint> points = new ArrayList<>();
        for (long ms : at) {
            Traffic t = traffic.get(ms);
            points.add(new TimelinePoint(Instant.ofEpochMilli(ms), load.get(ms),
                    t == null ? null : t.requestsPerSecond, t == null ? null : t.p95Ms,
                    t == null ? null : t.errorsPerSecond, t == null ? null : t.errorRatio()));
        }
        return new RunTimeline(runId, bucket, loadSource, requestSource, points);
    }

    /** The smallest of {@link #BUCKETS} that keeps the run (start to end, or to its latest sample) within 150 points. */
    int autoBucket(RunRow run) {
        Instant until = run.endedAt();
        if (until == null) {
            until = samples.activity(run.runId(), 1).lastSampleAt();
        }
        long span = until == null ? 0 : Math.max(0, Duration.between(run.startedAt(), until).toSeconds());
        return BUCKETS.stream().filter(b -> span / b <= MAX_POINTS).findFirst().orElse(BUCKETS.getLast());
    }

    /** Requests are the latency samples: count per second, exact p95; failures by label, or k6's flags. */
    private void perRequest(String runId, int bucket, List<SeriesRef> series, List<Long> latency,
            Map<Long, Traffic> out) {
        for (Bucket b : samples.buckets(runId, latency, bucket)) {
            out.put(b.startMillis(), new Traffic(b.count() / (double) bucket, b.p95(), 0));
        }
        List<Long> flags = ids(series, s -> gauge(s) && TrafficMetrics.FAILURE_FLAGS.contains(s.metric()));
        if (!flags.isEmpty()) {
            // k6's 0/1 point per request, when present, is the count of failures (as per step)
            samples.buckets(runId, flags, bucket).forEach(b -> failures(out, b.startMillis(), b.sum() / bucket));
        } else {
            List<Long> failed = ids(series, s -> gauge(s) && TrafficMetrics.LATENCY_PER_REQUEST_MS.contains(s.metric())
                    && TrafficMetrics.failed(s.labels()));
            samples.buckets(runId, failed, bucket).forEach(b -> failures(out, b.startMillis(), b.count() / (double) bucket));
        }
    }

    /** Request and failure totals: each counted series' increase from the bucket before, per second. */
    private boolean fromCounters(String runId, int bucket, List<SeriesRef> series, Map<Long, Traffic> out) {
        List<SeriesRef> requests = countedOnce(series, TrafficMetrics.REQUEST_COUNTERS);
        if (requests.isEmpty()) {
            return false;
        }
        List<SeriesRef> failed = new ArrayList<>(requests.stream().filter(s -> TrafficMetrics.failed(s.labels()))
                .toList());
        failed.addAll(countedOnce(series, TrafficMetrics.FAILURE_COUNTERS));
        increases(runId, bucket, requests).forEach((ms, rate) -> out.put(ms, new Traffic(rate, null, 0)));
        increases(runId, bucket, failed).forEach((ms, rate) -> failures(out, ms, rate));
        return true;
    }

    /**
     * Requests and failures as the tool counted them per window of its own (JMeter's backend listener; its total row's,
     * counted once): the counts of the windows stamped in a bucket over the bucket's length, as per step
     * ({@code StepThroughput}). False when the run has no such window.
     */
    private boolean fromWindowCounts(String runId, int bucket, List<SeriesRef> series, Map<Long, Traffic> out) {
        List<SeriesRef> summaries = countedOnce(series, TrafficMetrics.REQUEST_WINDOW_SUMMARIES, "SUMMARY");
        List<SeriesRef> counts = countedOnce(series, TrafficMetrics.REQUEST_WINDOW_COUNTS, "GAUGE");
        if (summaries.isEmpty() && counts.isEmpty()) {
            return false;
        }
        Map<Long, Double> requests = new TreeMap<>();
        samples.windowCounts(runId, ids(summaries, s -> true), bucket)
                .forEach(b -> requests.merge(b.startMillis(), b.sum(), Double::sum));
        samples.buckets(runId, ids(counts, s -> true), bucket)
                .forEach(b -> requests.merge(b.startMillis(), b.sum(), Double::sum));
        requests.forEach((ms, n) -> out.put(ms, new Traffic(n / bucket, null, 0)));
        samples.buckets(runId, ids(countedOnce(series, TrafficMetrics.FAILURE_WINDOW_COUNTS, "GAUGE"), s -> true),
                bucket).forEach(b -> failures(out, b.startMillis(), b.sum() / bucket));
        return !requests.isEmpty();
    }

    /**
     * Without per-request samples, the p95 the tool computed over its own windows (its total row's when it wrote
     * one), combined per bucket by their median, as per step ({@code StepThroughput}); never averaged.
     */
    private void toolWindows(String runId, int bucket, List<SeriesRef> series, Map<Long, Traffic> out) {
        List<SeriesRef> windows = countedOnce(series, Set.of(MetricNames.HTTP_DURATION_MS), "SUMMARY");
        for (RunActivityRepository.WindowMedian b : samples.windowQuantileMedians(runId, ids(windows, s -> true),
                bucket, "0.95")) {
            Traffic t = out.get(b.startMillis());
            if (t != null) {
                out.put(b.startMillis(), new Traffic(t.requestsPerSecond, b.median(), t.errorsPerSecond));
            }
        }
    }

    /**
     * Per bucket, the summed per-second increase of counters: a series' increase from its previous bucket's highest
     * value to this one's, over the time between them (a total that fell was reset: its new value is the increase).
     */
    private Map<Long, Double> increases(String runId, int bucket, List<SeriesRef> counters) {
        Map<Long, Double> out = new TreeMap<>();
        SeriesBucket previous = null;
        for (SeriesBucket b : samples.seriesBuckets(runId, ids(counters, s -> true), bucket)) {
            if (previous != null && previous.seriesId() == b.seriesId()) {
                double rise = b.bucket().max() - previous.bucket().max();
                double seconds = (b.bucket().startMillis() - previous.bucket().startMillis()) / 1000.0;
                out.merge(b.bucket().startMillis(), (rise < 0 ? b.bucket().max() : rise) / seconds, Double::sum);
            }
            previous = b;
        }
        return out;
    }

    /** The load-level gauges' mean per bucket, summed over their series; null when the run has none. */
    private String loadFromGauges(String runId, int bucket, List<SeriesRef> series, Map<Long, Double> out) {
        List<SeriesRef> levels = series.stream().filter(s -> gauge(s) && LOAD_LEVEL_METRICS.contains(s.metric()))
                .toList();
        if (levels.isEmpty()) {
            return null;
        }
        for (SeriesBucket b : samples.seriesBuckets(runId, ids(levels, s -> true), bucket)) {
            out.merge(b.bucket().startMillis(), b.bucket().mean(), Double::sum);
        }
        return levels.stream().map(SeriesRef::metric).distinct().sorted().collect(Collectors.joining(" + "));
    }

    /** The x (or the single load dimension) of the step each bucket starts in; null when the run has no steps. */
    private String loadFromSteps(String runId, int bucket, Set<Long> buckets, Map<Long, Double> out) {
        List<RunStep> known = steps.ofRun(runId).stream().filter(s -> s.startedAt() != null && level(s) != null).toList();
        if (known.isEmpty()) {
            return null;
        }
        TreeSet<Long> at = new TreeSet<>(buckets);
        for (RunStep s : known) {
            long from = Math.floorDiv(s.startedAt().toEpochMilli(), bucket * 1000L) * bucket * 1000L;
            long to = s.endedAt() != null ? s.endedAt().toEpochMilli() : at.isEmpty() ? from : at.last();
            for (long ms = from; ms <= to; ms += bucket * 1000L) {
                at.add(ms);
            }
        }
        for (long ms : at) {
            Instant t = Instant.ofEpochMilli(ms);
            known.stream().filter(s -> !s.startedAt().isAfter(t) && (s.endedAt() == null || s.endedAt().isAfter(t)))
                    .reduce((a, b) -> b).ifPresent(s -> out.put(ms, level(s)));
        }
        return "steps";
    }

    private static Double level(RunStep s) {
        if (s.x() != null) {
            return s.x();
        }
        return s.load().size() == 1 ? s.load().values().iterator().next() : null;
    }

    /** Of each source's series of each metric, those {@link TrafficMetrics#countedOnce} counts. */
    private static List<SeriesRef> countedOnce(List<SeriesRef> series, Set<String> metrics) {
        return countedOnce(series, metrics, "COUNTER");
    }

    private static List<SeriesRef> countedOnce(List<SeriesRef> series, Set<String> metrics, String kind) {
        Map<List<String>, List<SeriesRef>> groups = new LinkedHashMap<>();
        series.stream().filter(s -> kind.equals(s.kind()) && metrics.contains(s.metric()))
                .forEach(s -> groups.computeIfAbsent(List.of(s.source(), s.metric()), k -> new ArrayList<>()).add(s));
        List<SeriesRef> out = new ArrayList<>();
        for (List<SeriesRef> group : groups.values()) {
            Map<Map<String, String>, List<SeriesRef>> byLabels = new HashMap<>();
            group.forEach(s -> byLabels.computeIfAbsent(s.labels(), k -> new ArrayList<>()).add(s));
            TrafficMetrics.countedOnce(group.getFirst().metric(), List.copyOf(byLabels.keySet()))
                    .forEach(labels -> out.addAll(byLabels.get(labels)));
        }
        return out;
    }

    private static void failures(Map<Long, Traffic> out, long ms, double perSecond) {
        Traffic t = out.get(ms);
        if (t != null) {
            out.put(ms, new Traffic(t.requestsPerSecond, t.p95Ms, perSecond));
        }
    }

    private static boolean gauge(SeriesRef s) {
        return "GAUGE".equals(s.kind());
    }

    private static List<Long> ids(List<SeriesRef> series, Predicate<SeriesRef> keep) {
        return series.stream().filter(keep).map(SeriesRef::seriesId).toList();
    }

    /** One bucket's traffic: requests and failures per second, p95 in milliseconds (null from counters). */
    private record Traffic(double requestsPerSecond, Double p95Ms, double errorsPerSecond) {

        Double errorRatio() {
            return requestsPerSecond > 0 ? errorsPerSecond / requestsPerSecond : null;
        }
    }
}
