package dev.caplab.query.steps;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;

/**
 * How the API serves a stored {@code StepAggregate} (a Jackson mix-in): its late count as {@code lateSamples};
 * the load (served with the step), the sum, the raw quantiles (served as {@link AggregateView#p50()}…) and the
 * version are storage's own; sustained and peak before the mean, min and max.
 */
@JsonPropertyOrder({"runId", "stepIndex", "x", "source", "metric", "kind", "count", "warmupCount", "sustained", "peak",
        "mean", "min", "max", "ratePerSecond", "baselineDelta", "contaminated", "windowStart", "windowEnd",
        "lateSamples"})
public abstract class StepAggregateMixIn {

    @JsonProperty("lateSamples")
    abstract long getLateCount();

    @JsonIgnore
    abstract Map<String, Double> getLoad();

    @JsonIgnore
    abstract double getSum();

    @JsonIgnore
    abstract Map<String, Double> getQuantiles();

    @JsonIgnore
    abstract long getVersion();
}
