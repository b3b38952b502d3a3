package dev.caplab.query.testing;

import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.Segment;
import java.time.Instant;
import java.util.List;

/** Fits as the store keeps them (the schema's records, a segment without the statistics it has no column for). */
public final class StoredFits {

    private StoredFits() {
    }

    /** A linear piece y = intercept + slope·x on [fromX, toX]. */
    public static Segment segment(double fromX, double toX, double intercept, double slope, Double slopeStdErr) {
        return Segment.newBuilder().setFromX(fromX).setToX(toX).setIntercept(intercept).setSlope(slope)
                .setSlopeStdErr(slopeStdErr).build();
    }

    /** A breakpoint at x with its standard error and 95 % interval. */
    public static Breakpoint breakpoint(double x, Double stdErr, Double lower95, Double upper95) {
        return Breakpoint.newBuilder().setX(x).setStdErr(stdErr).setLower95(lower95).setUpper95(upper95).build();
    }

    /** A fit with every stored field given, in the schema's order. */
    public static CapacityFit fit(String runId, String source, String metric, String model, String modelVersion,
            String loadExpression, int stepsUsed, List<Segment> segments, List<Breakpoint> breakpoints,
            Double breakpointPValue, Double rSquared, boolean cliff, Integer cliffStepIndex, Double capacity,
            double margin, Double safeCapacityX, boolean bottleneck, Instant fittedAt, long version, String role) {
        return CapacityFit.newBuilder().setRunId(runId).setSource(source).setMetric(metric).setModel(model)
                .setModelVersion(modelVersion).setLoadExpression(loadExpression).setStepsUsed(stepsUsed)
                .setSegments(segments).setBreakpoints(breakpoints).setBreakpointPValue(breakpointPValue)
                .setRSquared(rSquared).setCliff(cliff).setCliffStepIndex(cliffStepIndex).setCapacity(capacity)
                .setMargin(margin).setSafeCapacityX(safeCapacityX).setBottleneck(bottleneck).setFittedAt(fittedAt)
                .setVersion(version).setRole(role).build();
    }

    /** A fit without a source role. */
    public static CapacityFit fit(String runId, String source, String metric, String model, String modelVersion,
            String loadExpression, int stepsUsed, List<Segment> segments, List<Breakpoint> breakpoints,
            Double breakpointPValue, Double rSquared, boolean cliff, Integer cliffStepIndex, Double capacity,
            double margin, Double safeCapacityX, boolean bottleneck, Instant fittedAt, long version) {
        return fit(runId, source, metric, model, modelVersion, loadExpression, stepsUsed, segments, breakpoints,
                breakpointPValue, rSquared, cliff, cliffStepIndex, capacity, margin, safeCapacityX, bottleneck,
                fittedAt, version, null);
    }
}
