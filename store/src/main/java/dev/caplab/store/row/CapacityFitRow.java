package dev.caplab.store.row;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.caplab.schema.vocabulary.MetricNames;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A row of {@code capacity_fits}, as the API serves it: one CapacityFit, a series fitted against the run's load
 * expression (a resource, or the request rate: {@link #throughputFit}), with its linear pieces, its breakpoints with
 * their 95 % intervals, the test that a break exists, the cliff, the node's ceiling and the safe capacity at the
 * margin. {@code baseline} and {@code slopePerX} are the first (below-knee) segment, {@code kneeX} and its interval
 * the first breakpoint, for flat CSV use. {@code role}: what the source is to the test, {@code sut} or {@code host}
 * (analysis {@code SourceRole}; agents and the load generator are never fitted), null on fits written before roles
 * were decided and on the throughput fit. The version is storage's own.
 */
@JsonPropertyOrder({"runId", "source", "metric", "model", "modelVersion", "loadExpression", "stepsUsed", "baseline",
        "slopePerX", "kneeX", "kneeLower95", "kneeUpper95", "breakpointPValue", "rSquared", "cliff", "cliffStepIndex",
        "capacity", "margin", "safeCapacityX", "bottleneck", "fittedAt", "segments", "breakpoints", "role",
        "throughputFit"})
public record CapacityFitRow(String runId, String source, String metric, String model, String modelVersion,
                             String loadExpression, int stepsUsed, List<SegmentValue> segments,
                             List<BreakpointValue> breakpoints,
                             Double breakpointPValue, Double rSquared, boolean cliff, Integer cliffStepIndex,
                             Double capacity, double margin, Double safeCapacityX, boolean bottleneck,
                             Instant fittedAt, @JsonIgnore long version, String role) implements RunScopedRow {

    public CapacityFitRow {
        Checks.text(runId, "runId");
        Checks.text(source, "source");
        Checks.text(metric, "metric");
        Checks.text(model, "model");
        Objects.requireNonNull(modelVersion, "modelVersion");
        Objects.requireNonNull(loadExpression, "loadExpression");
        Checks.nonNegative(stepsUsed, "stepsUsed");
        segments = List.copyOf(Objects.requireNonNull(segments, "segments"));
        breakpoints = List.copyOf(Objects.requireNonNull(breakpoints, "breakpoints"));
        if (!(margin > 0 && margin <= 1)) {
            throw new IllegalArgumentException("margin must be in (0, 1], was " + margin);
        }
        Objects.requireNonNull(fittedAt, "fittedAt");
        Checks.nonNegative(version, "version");
    }

    /** A fit without a known source role. */
    public CapacityFitRow(String runId, String source, String metric, String model, String modelVersion,
                          String loadExpression, int stepsUsed, List<SegmentValue> segments,
                          List<BreakpointValue> breakpoints, Double breakpointPValue, Double rSquared, boolean cliff,
                          Integer cliffStepIndex, Double capacity, double margin, Double safeCapacityX,
                          boolean bottleneck, Instant fittedAt, long version) {
        this(runId, source, metric, model, modelVersion, loadExpression, stepsUsed, segments, breakpoints,
                breakpointPValue, rSquared, cliff, cliffStepIndex, capacity, margin, safeCapacityX, bottleneck,
                fittedAt, version, null);
    }

    /** The first segment's intercept (the line below the knee), in the metric's unit; null without segments. */
    @JsonProperty("baseline")
    public Double baseline() {
        return segments.isEmpty() ? null : segments.getFirst().intercept();
    }

    /** The first segment's slope (below the knee), the metric's unit per unit of x; null without segments. */
    @JsonProperty("slopePerX")
    public Double slopePerX() {
        return segments.isEmpty() ? null : segments.getFirst().slope();
    }

    /** The first breakpoint's load, in x; null without a breakpoint. */
    @JsonProperty("kneeX")
    public Double kneeX() {
        return breakpoints.isEmpty() ? null : breakpoints.getFirst().x();
    }

    /** The lower end of the first breakpoint's 95 % interval, in x; null without a breakpoint or interval. */
    @JsonProperty("kneeLower95")
    public Double kneeLower95() {
        return breakpoints.isEmpty() ? null : breakpoints.getFirst().lower95();
    }

    /** The upper end of the first breakpoint's 95 % interval, in x; null without a breakpoint or interval. */
    @JsonProperty("kneeUpper95")
    public Double kneeUpper95() {
        return breakpoints.isEmpty() ? null : breakpoints.getFirst().upper95();
    }

    /**
     * True for the throughput fit (the request rate against load; its knee is the run's throughput limit), false for
     * a resource's fit: pages, comparisons and reports that speak of resources leave the former out
     * ({@link MetricNames#throughputFit}).
     */
    @JsonProperty("throughputFit")
    public boolean throughputFit() {
        return MetricNames.throughputFit(source, metric);
    }
}
