package dev.caplab.store.row;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A row of {@code capacity_fits}: one CapacityFit with its segments and breakpoints, and its source's role
 * ({@code sut} or {@code host}; null on fits written before roles were decided).
 */
public record CapacityFitRow(String runId, String source, String metric, String model, String modelVersion,
                             String loadExpression, int stepsUsed, List<SegmentValue> segments,
                             List<BreakpointValue> breakpoints,
                             Double breakpointPValue, Double rSquared, boolean cliff, Integer cliffStepIndex,
                             Double capacity, double margin, Double safeCapacityX, boolean bottleneck,
                             Instant fittedAt, long version, String role) implements RunScopedRow {

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
}
