package dev.caplab.store.row;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.schema.vocabulary.Statistics;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * A row of {@code step_aggregates}, as the API serves it: the statistics of one metric from one source over one step,
 * warm-up excluded (Avro StepAggregate; its count/min/max/mean are {@code count}, {@code min}, {@code max},
 * {@code mean}). Sustained (steady-state median) and peak are different numbers and are never to be confused;
 * counters also carry a rate; baselineDelta is sustained minus the run's pre-test baseline; {@code lateSamples}
 * reached the step after it first closed and amended it. The quantiles are served as {@code p50}…{@code p99}; the
 * load map (the step's, served with the step), the sum and the version are storage's own.
 */
@JsonPropertyOrder({"runId", "stepIndex", "x", "source", "metric", "kind", "count", "warmupCount", "sustained", "peak",
        "mean", "min", "max", "p50", "p90", "p95", "p99", "ratePerSecond", "baselineDelta", "contaminated",
        "windowStart", "windowEnd", "lateSamples", "resource"})
public record StepAggregateRow(String runId, int stepIndex, @JsonIgnore Map<String, Double> load, Double x,
                               String source, String metric, String kind, @Column("sample_count") long count,
                               long warmupCount, @JsonIgnore @EventField("sum") double valueSum,
                               @Column("value_min") double min, @Column("value_max") double max,
                               @Column("value_mean") double mean, double sustained, double peak,
                               @JsonIgnore Map<String, Double> quantiles, Double ratePerSecond, Double baselineDelta,
                               Instant windowStart, Instant windowEnd, boolean contaminated, @JsonIgnore long version,
                               @Column("late_count") @EventField("lateCount") long lateSamples)
        implements RunScopedRow {

    public StepAggregateRow {
        Checks.text(runId, "runId");
        load = Checks.map(load, "load");
        Checks.text(source, "source");
        Checks.text(metric, "metric");
        Checks.text(kind, "kind");
        Checks.nonNegative(count, "count");
        Checks.nonNegative(warmupCount, "warmupCount");
        quantiles = Checks.map(quantiles, "quantiles");
        Objects.requireNonNull(windowStart, "windowStart");
        Objects.requireNonNull(windowEnd, "windowEnd");
        if (windowEnd.isBefore(windowStart)) {
            throw new IllegalArgumentException("window of " + runId + " step " + stepIndex + " " + metric
                    + " ends before it starts");
        }
        Checks.nonNegative(version, "version");
        Checks.nonNegative(lateSamples, "lateSamples");
    }

    /** An aggregate no late sample amended. */
    public StepAggregateRow(String runId, int stepIndex, Map<String, Double> load, Double x, String source,
            String metric, String kind, long count, long warmupCount, double valueSum, double min, double max,
            double mean, double sustained, double peak, Map<String, Double> quantiles, Double ratePerSecond,
            Double baselineDelta, Instant windowStart, Instant windowEnd, boolean contaminated, long version) {
        this(runId, stepIndex, load, x, source, metric, kind, count, warmupCount, valueSum, min, max, mean, sustained,
                peak, quantiles, ratePerSecond, baselineDelta, windowStart, windowEnd, contaminated, version, 0);
    }

    /** The median, in the metric's unit; null when the step kept no quantiles. */
    @JsonProperty("p50")
    public Double p50() {
        return quantiles.get(Statistics.Q50);
    }

    /** The 90th percentile, in the metric's unit; null when the step kept no quantiles. */
    @JsonProperty("p90")
    public Double p90() {
        return quantiles.get(Statistics.Q90);
    }

    /** The 95th percentile, in the metric's unit; null when the step kept no quantiles. */
    @JsonProperty("p95")
    public Double p95() {
        return quantiles.get(Statistics.Q95);
    }

    /** The 99th percentile, in the metric's unit; null when the step kept no quantiles. */
    @JsonProperty("p99")
    public Double p99() {
        return quantiles.get(Statistics.Q99);
    }

    /**
     * Whether this is a reading of a resource of a host, cgroup or container ({@link MetricNames#resource}): what a
     * resource fit is made of, as against the load tool's readings.
     */
    @JsonProperty("resource")
    public boolean resource() {
        return MetricNames.resource(metric);
    }
}
