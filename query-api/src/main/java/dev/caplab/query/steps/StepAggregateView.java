package dev.caplab.query.steps;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.schema.vocabulary.Statistics;
import dev.caplab.store.row.StepAggregateRow;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Statistics of one metric from one source over one step, warm-up excluded: sustained (steady-state median) and
 * peak are different numbers and are never to be confused; counters also carry a rate; baselineDelta is sustained
 * minus the run's pre-test baseline; lateSamples reached the step after it first closed and amended it.
 */
public record StepAggregateView(String runId, int stepIndex, Double x, String source, String metric, String kind,
                                long count, long warmupCount, double sustained, double peak, double mean,
                                double min, double max, Double p50, Double p90, Double p95, Double p99,
                                Double ratePerSecond, Double baselineDelta, boolean contaminated,
                                Instant windowStart, Instant windowEnd, long lateSamples) {

    /**
     * Whether this is a reading of a resource of a host, cgroup or container ({@link MetricNames#resource}): what a
     * resource fit is made of, as against the load tool's readings.
     */
    @JsonProperty("resource")
    public boolean resource() {
        return MetricNames.resource(metric);
    }

    /** The view of a stored aggregate. */
    public static StepAggregateView of(StepAggregateRow a) {
        Map<String, Double> q = a.quantiles();
        return new StepAggregateView(a.runId(), a.stepIndex(), a.x(), a.source(), a.metric(), a.kind(),
                a.sampleCount(), a.warmupCount(), a.sustained(), a.peak(), a.valueMean(), a.valueMin(), a.valueMax(),
                q.get(Statistics.Q50), q.get(Statistics.Q90), q.get(Statistics.Q95), q.get(Statistics.Q99),
                a.ratePerSecond(), a.baselineDelta(), a.contaminated(), a.windowStart(), a.windowEnd(), a.lateCount());
    }

    /** The views of stored aggregates, in their order. */
    public static List<StepAggregateView> of(List<StepAggregateRow> rows) {
        return rows.stream().map(StepAggregateView::of).toList();
    }
}
