package dev.caplab.query.report;

import dev.caplab.query.steps.StepAggregateView;
import dev.caplab.query.steps.StepView;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The one place the report reads throughput and latency from: today from the step aggregates the load tools'
 * metrics already produce (the metric names of {@code ingest/README.md}); a dedicated per-step throughput series can
 * replace this adapter without touching the renderer.
 * <ul>
 *   <li>requests/s: the steady rate of request counters ({@code http.reqs.count}, {@code k6_http_reqs_total}),
 *       summed over sources; else the steady sample count of per-request latency gauges ({@code http.req.duration.ms},
 *       {@code http_req_duration}: one sample per request) over the steady seconds; else a tool's own
 *       {@code http.reqs.per_s} gauge (sustained, summed over sources);</li>
 *   <li>error ratio: the steady rate of failure counters ({@code http.req.failed.count}) over the request rate;</li>
 *   <li>p50/p95/p99: of the per-request latency gauge with the most samples in the step (quantiles of different
 *       sources cannot be merged from their aggregates, so they are never averaged).</li>
 * </ul>
 */
public final class TrafficFromAggregates {

    static final Set<String> REQUEST_COUNTERS = Set.of("http.reqs.count", "k6_http_reqs_total");
    static final Set<String> FAILURE_COUNTERS = Set.of("http.req.failed.count");
    static final Set<String> LATENCY_PER_REQUEST_MS = Set.of("http.req.duration.ms", "http_req_duration");
    static final Set<String> REQUEST_RATE_GAUGES = Set.of("http.reqs.per_s");

    private TrafficFromAggregates() {
    }

    /** Per step (by index), its traffic; steps without any such aggregate get a row of nulls. */
    public static List<StepTraffic> of(List<StepView> steps, List<StepAggregateView> aggregates) {
        return steps.stream().sorted(Comparator.comparingInt(StepView::stepIndex))
                .map(step -> of(step, aggregates.stream().filter(a -> a.stepIndex() == step.stepIndex()).toList()))
                .toList();
    }

    static StepTraffic of(StepView step, List<StepAggregateView> aggregates) {
        Double requests = sum(aggregates, REQUEST_COUNTERS, StepAggregateView::ratePerSecond);
        Optional<StepAggregateView> latency = aggregates.stream()
                .filter(a -> LATENCY_PER_REQUEST_MS.contains(a.metric()))
                .max(Comparator.comparingLong(StepAggregateView::count).thenComparing(StepAggregateView::source));
        if (requests == null) {
            requests = perRequestRate(step, aggregates);
        }
        if (requests == null) {
            requests = sum(aggregates, REQUEST_RATE_GAUGES, StepAggregateView::sustained);
        }
        Double failures = sum(aggregates, FAILURE_COUNTERS, StepAggregateView::ratePerSecond);
        Double errorRatio = failures == null || requests == null || requests <= 0 ? null
                : Math.min(1.0, failures / requests);
        return new StepTraffic(step.stepIndex(), step.x(), requests, errorRatio,
                latency.map(StepAggregateView::p50).orElse(null), latency.map(StepAggregateView::p95).orElse(null),
                latency.map(StepAggregateView::p99).orElse(null), latency.map(StepAggregateView::source).orElse(null));
    }

    /** Steady-part samples of every per-request latency gauge over the steady seconds (step end − warm-up end). */
    private static Double perRequestRate(StepView step, List<StepAggregateView> aggregates) {
        List<StepAggregateView> perRequest = aggregates.stream()
                .filter(a -> LATENCY_PER_REQUEST_MS.contains(a.metric())).toList();
        if (perRequest.isEmpty() || step.startedAt() == null || step.endedAt() == null) {
            return null;
        }
        double steadySeconds = Duration.between(step.startedAt(), step.endedAt()).toMillis() / 1000.0
                - step.warmupMillis() / 1000.0;
        if (steadySeconds <= 0) {
            return null;
        }
        long steadyRequests = perRequest.stream().mapToLong(a -> a.count() - a.warmupCount()).sum();
        return steadyRequests / steadySeconds;
    }

    private static Double sum(List<StepAggregateView> aggregates, Set<String> metrics,
                              java.util.function.Function<StepAggregateView, Double> value) {
        List<Double> values = aggregates.stream().filter(a -> metrics.contains(a.metric())).map(value)
                .filter(v -> v != null && Double.isFinite(v)).toList();
        return values.isEmpty() ? null : values.stream().mapToDouble(Double::doubleValue).sum();
    }
}
