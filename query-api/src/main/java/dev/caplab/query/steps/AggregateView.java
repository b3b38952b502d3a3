package dev.caplab.query.steps;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonIncludeProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.schema.vocabulary.Statistics;
import java.util.List;
import java.util.Objects;

/**
 * A step aggregate as the API serves it ({@code /aggregates}, JSON and CSV): the stored aggregate under the names
 * {@link StepAggregateMixIn} gives it, with its quantiles as {@code p50}…{@code p99} and whether it reads a resource.
 * The aggregate is unwrapped in two parts, its statistics and then its rate, window and lateness, so the percentiles
 * stand beside the other statistics, where the API's JSON order and CSV columns have always had them.
 */
@io.swagger.v3.oas.annotations.media.Schema(name = "StepAggregateRow")
@JsonPropertyOrder({"statistics", "p50", "p90", "p95", "p99", "window", "resource"})
public record AggregateView(@JsonIgnore StepAggregate aggregate) {

    public AggregateView {
        Objects.requireNonNull(aggregate, "aggregate");
    }

    /**
     * The series, its step and its statistics: every served field but those {@link #window} holds, so a field the
     * schema gains is served here without a word of this class changing.
     */
    @JsonProperty("statistics")
    @JsonUnwrapped
    @JsonIgnoreProperties({"ratePerSecond", "baselineDelta", "contaminated", "windowStart", "windowEnd",
            "lateSamples"})
    StepAggregate statistics() {
        return aggregate;
    }

    /** A counter's rate, the baseline delta, contamination, the window and the late samples. */
    @JsonProperty("window")
    @JsonUnwrapped
    @JsonIncludeProperties({"ratePerSecond", "baselineDelta", "contaminated", "windowStart", "windowEnd",
            "lateSamples"})
    StepAggregate window() {
        return aggregate;
    }

    /** Each of {@code aggregates} as served, in their order. */
    public static List<AggregateView> of(List<StepAggregate> aggregates) {
        return aggregates.stream().map(AggregateView::new).toList();
    }

    /** The median, in the metric's unit; null when the step kept no quantiles. */
    @JsonProperty("p50")
    public Double p50() {
        return aggregate.getQuantiles().get(Statistics.Q50);
    }

    /** The 90th percentile, in the metric's unit; null when the step kept no quantiles. */
    @JsonProperty("p90")
    public Double p90() {
        return aggregate.getQuantiles().get(Statistics.Q90);
    }

    /** The 95th percentile, in the metric's unit; null when the step kept no quantiles. */
    @JsonProperty("p95")
    public Double p95() {
        return aggregate.getQuantiles().get(Statistics.Q95);
    }

    /** The 99th percentile, in the metric's unit; null when the step kept no quantiles. */
    @JsonProperty("p99")
    public Double p99() {
        return aggregate.getQuantiles().get(Statistics.Q99);
    }

    /**
     * Whether this is a reading of a resource of a host, cgroup or container ({@link MetricNames#resource}): what a
     * resource fit is made of, as against the load tool's readings.
     */
    @JsonProperty("resource")
    public boolean resource() {
        return MetricNames.resource(aggregate.getMetric());
    }
}
