package dev.caplab.store.row;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * A row of {@code step_aggregates}: one StepAggregate (Avro count/sum/min/max/mean are sampleCount/value*);
 * {@code lateCount} samples reached the step after it first closed.
 */
public record StepAggregateRow(String runId, int stepIndex, Map<String, Double> load, Double x, String source,
                               String metric, String kind, long sampleCount, long warmupCount, double valueSum,
                               double valueMin, double valueMax, double valueMean, double sustained, double peak,
                               Map<String, Double> quantiles, Double ratePerSecond, Double baselineDelta,
                               Instant windowStart, Instant windowEnd, boolean contaminated, long version,
                               long lateCount) implements RunScopedRow {

    public StepAggregateRow {
        Checks.text(runId, "runId");
        load = Checks.map(load, "load");
        Checks.text(source, "source");
        Checks.text(metric, "metric");
        Checks.text(kind, "kind");
        Checks.nonNegative(sampleCount, "sampleCount");
        Checks.nonNegative(warmupCount, "warmupCount");
        quantiles = Checks.map(quantiles, "quantiles");
        Objects.requireNonNull(windowStart, "windowStart");
        Objects.requireNonNull(windowEnd, "windowEnd");
        if (windowEnd.isBefore(windowStart)) {
            throw new IllegalArgumentException("window of " + runId + " step " + stepIndex + " " + metric
                    + " ends before it starts");
        }
        Checks.nonNegative(version, "version");
        Checks.nonNegative(lateCount, "lateCount");
    }

    /** An aggregate no late sample amended. */
    public StepAggregateRow(String runId, int stepIndex, Map<String, Double> load, Double x, String source,
            String metric, String kind, long sampleCount, long warmupCount, double valueSum, double valueMin,
            double valueMax, double valueMean, double sustained, double peak, Map<String, Double> quantiles,
            Double ratePerSecond, Double baselineDelta, Instant windowStart, Instant windowEnd, boolean contaminated,
            long version) {
        this(runId, stepIndex, load, x, source, metric, kind, sampleCount, warmupCount, valueSum, valueMin, valueMax,
                valueMean, sustained, peak, quantiles, ratePerSecond, baselineDelta, windowStart, windowEnd,
                contaminated, version, 0);
    }
}
