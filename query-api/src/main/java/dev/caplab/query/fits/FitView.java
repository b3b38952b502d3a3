package dev.caplab.query.fits;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.Segment;
import dev.caplab.schema.vocabulary.MetricNames;
import java.util.List;
import java.util.Objects;

/**
 * A stored capacity fit as the API serves it: the schema's {@link CapacityFit} (a series fitted against the run's
 * load expression, a resource or the request rate, with its linear pieces, its breakpoints with their 95 %
 * intervals, the test that a break exists, the cliff, the node's ceiling and the safe capacity at the margin),
 * followed by what flat readers (CSV, the page's tables) take from it: the first (below-knee) segment as
 * {@code baseline} and {@code slopePerX}, the first breakpoint as {@code kneeX} with its interval, and whether it is
 * the throughput fit. The fit's {@code version} is storage's own and is not served ({@link CapacityFitMixIn}).
 */
@JsonPropertyOrder({"fit", "baseline", "slopePerX", "kneeX", "kneeLower95", "kneeUpper95", "throughputFit"})
public record FitView(@JsonUnwrapped CapacityFit fit) {

    public FitView {
        Objects.requireNonNull(fit, "fit");
    }

    /** Each fit of {@code fits} as served, in their order. */
    public static List<FitView> of(List<CapacityFit> fits) {
        return fits.stream().map(FitView::new).toList();
    }

    /** The first segment's intercept (the line below the knee), in the metric's unit; null without segments. */
    @JsonProperty("baseline")
    public Double baseline() {
        return firstSegment() == null ? null : firstSegment().getIntercept();
    }

    /** The first segment's slope (below the knee), the metric's unit per unit of x; null without segments. */
    @JsonProperty("slopePerX")
    public Double slopePerX() {
        return firstSegment() == null ? null : firstSegment().getSlope();
    }

    /** The first breakpoint's load, in x; null without a breakpoint. */
    @JsonProperty("kneeX")
    public Double kneeX() {
        return knee() == null ? null : knee().getX();
    }

    /** The lower end of the first breakpoint's 95 % interval, in x; null without a breakpoint or interval. */
    @JsonProperty("kneeLower95")
    public Double kneeLower95() {
        return knee() == null ? null : knee().getLower95();
    }

    /** The upper end of the first breakpoint's 95 % interval, in x; null without a breakpoint or interval. */
    @JsonProperty("kneeUpper95")
    public Double kneeUpper95() {
        return knee() == null ? null : knee().getUpper95();
    }

    /**
     * True for the throughput fit (the request rate against load; its knee is the run's throughput limit), false for
     * a resource's fit: pages, comparisons and reports that speak of resources leave the former out
     * ({@link MetricNames#throughputFit}).
     */
    @JsonProperty("throughputFit")
    public boolean throughputFit() {
        return MetricNames.throughputFit(fit.getSource(), fit.getMetric());
    }

    private Segment firstSegment() {
        return fit.getSegments().isEmpty() ? null : fit.getSegments().getFirst();
    }

    private Breakpoint knee() {
        return fit.getBreakpoints().isEmpty() ? null : fit.getBreakpoints().getFirst();
    }

    /** What the API leaves out of a stored fit: its version, storage's own. */
    public abstract static class CapacityFitMixIn {

        @JsonIgnore
        abstract long getVersion();
    }

    /**
     * What the API leaves out of a fit's segment: the statistics the store keeps no column for
     * ({@code CapacityFitRepository}), so they would always read back null.
     */
    public abstract static class SegmentMixIn {

        @JsonIgnore
        abstract Double getInterceptStdErr();

        @JsonIgnore
        abstract Double getSlopeLower95();

        @JsonIgnore
        abstract Double getSlopeUpper95();
    }
}
