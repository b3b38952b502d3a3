package dev.caplab.store.row;

import java.time.Instant;
import java.util.Objects;

/** A row of {@code capacity_fits}: one CapacityFit, segments and breakpoints as Avro's JSON arrays. */
public record CapacityFitRow(String runId, String source, String metric, String model, String modelVersion,
                             String loadExpression, int stepsUsed, String segmentsJson, String breakpointsJson,
                             Double breakpointPValue, Double rSquared, boolean cliff, Integer cliffStepIndex,
                             Double capacity, double margin, Double safeCapacityX, boolean bottleneck,
                             Instant fittedAt, long version) {

    public CapacityFitRow {
        Checks.text(runId, "runId");
        Checks.text(source, "source");
        Checks.text(metric, "metric");
        Checks.text(model, "model");
        Objects.requireNonNull(modelVersion, "modelVersion");
        Objects.requireNonNull(loadExpression, "loadExpression");
        Checks.nonNegative(stepsUsed, "stepsUsed");
        Objects.requireNonNull(segmentsJson, "segmentsJson");
        Objects.requireNonNull(breakpointsJson, "breakpointsJson");
        if (!(margin > 0 && margin <= 1)) {
            throw new IllegalArgumentException("margin must be in (0, 1], was " + margin);
        }
        Objects.requireNonNull(fittedAt, "fittedAt");
        Checks.nonNegative(version, "version");
    }
}
