package dev.caplab.streams.aggregate;

import static dev.caplab.schema.vocabulary.MetricNames.THROUGHPUT_SOURCE;

import dev.caplab.analysis.throughput.TrafficMetrics;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryWindow;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.TopologySettings;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A step's throughput, errors and latency as derived series of source {@link MetricNames#THROUGHPUT_SOURCE}: requests
 * per second and the failed share over the steady part, the latency distribution (quantiles read from the merge of
 * the steady seconds' DDSketches, never averaged; or, without per-request samples, the tool's own window
 * percentiles combined by their median; and the exact mean from the tool's own since-start totals, {@link
 * ToolTotalsMean}), and the load generator's CPU. A tool's total row and per-endpoint rows are
 * {@link CountedOnce counted once}. Which samples are requests,
 * failures and latencies is {@link TrafficMetrics}'s to say. A pure function of the step's partials (any order).
 *
 * <p>The steady part is the step's seconds from the end of warm-up (as {@link StepStatistics}); a step shorter than
 * its warm-up reports from all its seconds. Its duration counts the whole seconds whose start falls in it, the same
 * rule that assigns a partial to a step, so requests / duration is the mean rate over exactly those seconds.
 */
public final class StepThroughput {

    private StepThroughput() {
    }

    /** The derived series of one window with no counter readings before it. */
    public static List<SeriesStats> of(List<Partial> inStep, long startMicros, long endMicros, long steadyFromMicros,
            TopologySettings settings) {
        return of(inStep, Priors.NONE, startMicros, endMicros, steadyFromMicros, settings);
    }

    /**
     * The derived series of one step; empty when the step has no request samples and no generator CPU. {@code priors}:
     * per counter and tool-totals series, its last reading before the step, from which the step's increase runs
     * ({@link StepStatistics}: a reading and the increase it reports belong to the step it falls in).
     */
    public static List<SeriesStats> of(List<Partial> inStep, Priors priors, long startMicros,
            long endMicros, long steadyFromMicros, TopologySettings settings) {
        long bucket = settings.bucketMicros();
        boolean anySteady = inStep.stream().anyMatch(p -> p.bucketMicros() >= steadyFromMicros);
        long from = anySteady ? Math.max(startMicros, steadyFromMicros) : startMicros;
        double seconds = (Math.ceilDiv(endMicros, bucket) - Math.ceilDiv(from, bucket)) * bucket / 1e6;
        List<Partial> steady = inStep.stream().filter(p -> p.bucketMicros() >= from).toList();
        List<SeriesStats> out = new ArrayList<>();
        if (seconds > 0) {
            List<Partial> latency = ofMetrics(steady, TrafficMetrics.LATENCY_PER_REQUEST_MS, SampleKind.GAUGE);
            if (!latency.isEmpty()) {
                long warmup = ofMetrics(inStep, TrafficMetrics.LATENCY_PER_REQUEST_MS, SampleKind.GAUGE).stream()
                        .filter(p -> p.bucketMicros() < from).mapToLong(Partial::count).sum();
                perRequest(out, latency, ofMetrics(steady, TrafficMetrics.FAILURE_FLAGS, SampleKind.GAUGE), warmup,
                        seconds);
            } else {
                if (!fromCounters(out, inStep, priors.counters(), from, settings)) {
                    fromWindowCounts(out, steady, seconds);
                }
                toolWindows(steady, from).ifPresent(out::add);
                ToolTotalsMean.of(inStep, priors.totals(), from).ifPresent(out::add);
            }
        }
        loadGenerator(inStep, from, settings).ifPresent(out::add);
        return out;
    }

    /** One latency sample per request: their count is the requests, their sketches the latency distribution. */
    private static void perRequest(List<SeriesStats> out, List<Partial> latency, List<Partial> failureFlags,
            long warmupRequests, double seconds) {
        long requests = 0;
        long labelledFailures = 0;
        ExactSum total = new ExactSum();
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        QuantileSketch merged = QuantileSketch.empty();
        for (Partial p : latency) {
            requests += p.count();
            labelledFailures += TrafficMetrics.failed(p.labels()) ? p.count() : 0;
            total.add(p.sum);
            min = Math.min(min, p.min());
            max = Math.max(max, p.max());
            merged.merge(p.sketch());
        }
        // k6 sends a 0/1 point per request besides tagging it; when it is there it is the count of failures
        ExactSum flagged = new ExactSum();
        failureFlags.forEach(p -> flagged.add(p.sum));
        double failures = failureFlags.isEmpty() ? labelledFailures : flagged.value();
        out.add(flat(MetricNames.THROUGHPUT_REQUESTS_PER_S, requests, warmupRequests, requests, requests / seconds,
                requests / seconds));
        out.add(flat(MetricNames.THROUGHPUT_ERRORS_RATIO, Math.round(failures), 0, failures, failures / requests,
                failures / seconds));
        Map<String, Double> quantiles = merged.quantiles();
        double sum = total.value();
        out.add(new SeriesStats(THROUGHPUT_SOURCE, MetricNames.THROUGHPUT_LATENCY_MS, SampleKind.GAUGE, requests, warmupRequests, sum,
                min, max, sum / requests, quantiles.getOrDefault("0.5", Double.NaN), max, Double.NaN, quantiles, null,
                false));
    }

    /**
     * Request and failure totals: the tool's own steady increase, and its rate per second as every counter's. False
     * when the step has no request counter to say it.
     */
    private static boolean fromCounters(List<SeriesStats> out, List<Partial> inStep, Map<String, TimedValue> priors,
            long from, TopologySettings settings) {
        List<Partial> requests = CountedOnce.select(ofMetrics(inStep, TrafficMetrics.REQUEST_COUNTERS,
                SampleKind.COUNTER));
        if (requests.isEmpty()) {
            return false;
        }
        Double rate = rate(requests, priors, from, settings);
        if (rate == null) {
            return false;
        }
        List<Partial> failed = new ArrayList<>(requests.stream().filter(p -> TrafficMetrics.failed(p.labels()))
                .toList());
        failed.addAll(CountedOnce.select(ofMetrics(inStep, TrafficMetrics.FAILURE_COUNTERS, SampleKind.COUNTER)));
        Double failedRate = failed.isEmpty() ? Double.valueOf(0) : rate(failed, priors, from, settings);
        // the request count is the tool's own increase, never rate × seconds: a step whose last report the tool
        // skipped would count requests nobody sent
        double counted = StepStatistics.steadyIncrease(requests, priors, from);
        out.add(flat(MetricNames.THROUGHPUT_REQUESTS_PER_S, Math.round(counted), 0, counted, rate, rate));
        if (failedRate != null && rate > 0) {
            double failures = failed.isEmpty() ? 0 : StepStatistics.steadyIncrease(failed, priors, from);
            out.add(flat(MetricNames.THROUGHPUT_ERRORS_RATIO, Math.round(failures), 0, failures, failedRate / rate,
                    failedRate));
        }
        return true;
    }

    /**
     * Requests and failures as the tool counted them per window (its total row's, {@link CountedOnce counted once}):
     * the counts of the windows reported in the steady seconds over the steady duration. Nothing when no window
     * carried a count, or when one of them was read from state that did not keep it (unknown is not zero).
     */
    private static void fromWindowCounts(List<SeriesStats> out, List<Partial> steady, double seconds) {
        long requests = 0;
        for (Partial p : CountedOnce.select(ofMetrics(steady, TrafficMetrics.REQUEST_WINDOW_SUMMARIES,
                SampleKind.SUMMARY))) {
            if (p.windowCount().isEmpty()) {
                return;
            }
            requests += p.windowCount().getAsLong();
        }
        ExactSum counted = new ExactSum();
        CountedOnce.select(ofMetrics(steady, TrafficMetrics.REQUEST_WINDOW_COUNTS, SampleKind.GAUGE))
                .forEach(p -> counted.add(p.sum));
        requests += Math.round(counted.value());
        if (requests == 0) {
            return;
        }
        ExactSum failed = new ExactSum();
        CountedOnce.select(ofMetrics(steady, TrafficMetrics.FAILURE_WINDOW_COUNTS, SampleKind.GAUGE))
                .forEach(p -> failed.add(p.sum));
        double failures = failed.value();
        out.add(flat(MetricNames.THROUGHPUT_REQUESTS_PER_S, requests, 0, requests, requests / seconds,
                requests / seconds));
        out.add(flat(MetricNames.THROUGHPUT_ERRORS_RATIO, Math.round(failures), 0, failures, failures / requests,
                failures / seconds));
    }

    /**
     * The latency percentiles the tool computed over its own windows (the total row's when it wrote one), combined
     * across the steady windows by their median per quantile, never averaged: {@link
     * MetricNames#THROUGHPUT_LATENCY_WINDOW_MEDIAN_MS}, its count the number of windows. Since-start (CUMULATIVE)
     * percentiles say nothing about one step and are left out.
     */
    private static Optional<SeriesStats> toolWindows(List<Partial> steady, long from) {
        List<Partial.SummaryPoint> windows = CountedOnce.select(ofMetrics(steady,
                        Set.of(MetricNames.HTTP_DURATION_MS), SampleKind.SUMMARY)).stream()
                .flatMap(p -> p.summaries().stream())
                .filter(s -> s.window() == SummaryWindow.WINDOW && s.timestampMicros() >= from)
                .toList();
        Map<String, Double> quantiles = StepStatistics.windowMedians(windows);
        if (quantiles.isEmpty()) {
            return Optional.empty();
        }
        double median = quantiles.getOrDefault("0.5", Double.NaN);
        return Optional.of(new SeriesStats(THROUGHPUT_SOURCE, MetricNames.THROUGHPUT_LATENCY_WINDOW_MEDIAN_MS, SampleKind.SUMMARY,
                windows.size(), 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, median, Double.NaN, Double.NaN,
                quantiles, null, false));
    }

    private static Double rate(List<Partial> counters, Map<String, TimedValue> priors, long from,
            TopologySettings settings) {
        return StepStatistics.stats(THROUGHPUT_SOURCE, MetricNames.THROUGHPUT_REQUESTS_PER_S, SampleKind.COUNTER, counters, priors,
                from, settings).ratePerSecond();
    }

    /** The busiest generator source's sustained CPU (% of its machine): the one that would limit first. */
    private static Optional<SeriesStats> loadGenerator(List<Partial> inStep, long from,
            TopologySettings settings) {
        Map<String, List<Partial>> bySource = new TreeMap<>();
        for (Partial p : inStep) {
            if (p.metric().equals(TrafficMetrics.LOADGEN_CPU_METRIC) && TrafficMetrics.loadGenerator(p.labels())) {
                bySource.computeIfAbsent(p.source(), k -> new ArrayList<>()).add(p);
            }
        }
        return bySource.values().stream()
                .map(g -> StepStatistics.stats(g.getFirst().source(), TrafficMetrics.LOADGEN_CPU_METRIC,
                        SampleKind.GAUGE, g, Map.of(), from, settings))
                .filter(s -> Double.isFinite(s.sustained()))
                .max(Comparator.comparingDouble(SeriesStats::sustained))
                .map(s -> new SeriesStats(THROUGHPUT_SOURCE, MetricNames.THROUGHPUT_LOADGEN_CPU_UTIL_PERCENT, SampleKind.GAUGE,
                        s.count(), s.warmupCount(), s.sum(), s.min(), s.max(), s.mean(), s.sustained(), s.peak(),
                        s.last(), Map.of(), null, false));
    }

    private static List<Partial> ofMetrics(List<Partial> partials, Set<String> metrics, SampleKind kind) {
        return partials.stream().filter(p -> p.kind() == kind && metrics.contains(p.metric())).toList();
    }

    /**
     * A step figure that is one number: every statistic of the series is {@code value}; {@code ratePerSecond} is the
     * events counted ({@code count}: requests or failures) per second.
     */
    private static SeriesStats flat(String metric, long count, long warmupCount, double sum, double value,
            double ratePerSecond) {
        return new SeriesStats(THROUGHPUT_SOURCE, metric, SampleKind.GAUGE, count, warmupCount, sum, value, value, value, value,
                value, value, Map.of(), ratePerSecond, false);
    }
}
