package dev.caplab.query.fits;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.caplab.analysis.throughput.TrafficMetrics;
import dev.caplab.store.row.CapacityFitRow;
import java.time.Instant;
import java.util.List;

/**
 * A series fitted against the run's load expression (a resource, or the request rate: {@link #throughputFit}): the
 * linear pieces, the breakpoints with their 95 % intervals, the test that a break exists, the cliff, the node's
 * ceiling and the safe capacity at the margin. {@code baseline} and {@code slopePerX} are the first (below-knee)
 * segment, {@code kneeX} the first breakpoint, for flat CSV use. {@code role}: what the source is to the test,
 * {@code sut} or {@code host} (analysis {@code SourceRole}; agents and the load generator are never fitted), null on
 * fits stored before roles were decided and on the throughput fit.
 */
public record FitView(String runId, String source, String metric, String model, String modelVersion,
                      String loadExpression, int stepsUsed, Double baseline, Double slopePerX, Double kneeX,
                      Double kneeLower95, Double kneeUpper95, Double breakpointPValue, Double rSquared, boolean cliff,
                      Integer cliffStepIndex, Double capacity, double margin, Double safeCapacityX, boolean bottleneck,
                      Instant fittedAt, List<Segment> segments, List<Breakpoint> breakpoints, String role) {

    public FitView {
        segments = List.copyOf(segments);
        breakpoints = List.copyOf(breakpoints);
    }

    /**
     * True for the throughput fit (the request rate against load; its knee is the run's throughput limit), false for
     * a resource's fit: pages, comparisons and reports that speak of resources leave the former out.
     */
    @JsonProperty("throughputFit")
    public boolean throughputFit() {
        return TrafficMetrics.throughputFit(source, metric);
    }

    /** One linear piece y = intercept + slope·x on [fromX, toX]. */
    public record Segment(double fromX, double toX, double intercept, double slope, Double slopeStdErr) {
    }

    /** A breakpoint x with its standard error and 95 % interval. */
    public record Breakpoint(double x, Double stdErr, Double lower95, Double upper95) {
    }

    /** Builds the view, deriving the flat below-knee fields from the first segment and breakpoint. */
    public static FitView of(String runId, String source, String metric, String model, String modelVersion,
                             String loadExpression, int stepsUsed, List<Segment> segments,
                             List<Breakpoint> breakpoints, Double breakpointPValue, Double rSquared, boolean cliff,
                             Integer cliffStepIndex, Double capacity, double margin, Double safeCapacityX,
                             boolean bottleneck, Instant fittedAt) {
        Segment first = segments.isEmpty() ? null : segments.getFirst();
        Breakpoint knee = breakpoints.isEmpty() ? null : breakpoints.getFirst();
        return new FitView(runId, source, metric, model, modelVersion, loadExpression, stepsUsed,
                first == null ? null : first.intercept(), first == null ? null : first.slope(),
                knee == null ? null : knee.x(), knee == null ? null : knee.lower95(),
                knee == null ? null : knee.upper95(), breakpointPValue, rSquared, cliff, cliffStepIndex, capacity,
                margin, safeCapacityX, bottleneck, fittedAt, segments, breakpoints, null);
    }

    /** The view of a stored fit. */
    public static FitView of(CapacityFitRow f) {
        List<Segment> segments = f.segments().stream().map(s -> new Segment(s.fromX(), s.toX(), s.intercept(),
                s.slope(), s.slopeStdErr())).toList();
        List<Breakpoint> breakpoints = f.breakpoints().stream().map(b -> new Breakpoint(b.x(), b.stdErr(),
                b.lower95(), b.upper95())).toList();
        return of(f.runId(), f.source(), f.metric(), f.model(), f.modelVersion(), f.loadExpression(), f.stepsUsed(),
                segments, breakpoints, f.breakpointPValue(), f.rSquared(), f.cliff(), f.cliffStepIndex(),
                f.capacity(), f.margin(), f.safeCapacityX(), f.bottleneck(), f.fittedAt()).withRole(f.role());
    }

    /** The views of stored fits, in their order. */
    public static List<FitView> of(List<CapacityFitRow> rows) {
        return rows.stream().map(FitView::of).toList();
    }

    /** This fit with its source's role. */
    public FitView withRole(String sourceRole) {
        return new FitView(runId, source, metric, model, modelVersion, loadExpression, stepsUsed, baseline, slopePerX,
                kneeX, kneeLower95, kneeUpper95, breakpointPValue, rSquared, cliff, cliffStepIndex, capacity, margin,
                safeCapacityX, bottleneck, fittedAt, segments, breakpoints, sourceRole);
    }
}
