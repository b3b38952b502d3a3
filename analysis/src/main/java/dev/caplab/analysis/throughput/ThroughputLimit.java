package dev.caplab.analysis.throughput;

import dev.caplab.analysis.Finite;
import dev.caplab.analysis.fit.Pieces;
import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.Segment;
import java.util.List;
import java.util.Optional;

/**
 * Where a run's request rate stopped growing with load: the knee x of the segmented fit of the per-step request rate
 * against x, with its 95 % interval (Muggeo 2003 delta interval, as every caplab knee), the rate at the knee (the
 * plateau), the slopes either side, and the Davies (2002) p-value that a break exists at all.
 */
public record ThroughputLimit(double kneeX, double kneeLower95, double kneeUpper95, double plateauRatePerSecond,
                              double slopeBeforePerX, double slopeAfterPerX, double breakpointPValue) {

    /**
     * The rate grows with load before a throughput knee and at most this share of that growth after it (k6 Cloud's
     * "throughput limit": load keeps rising, the request rate stays flat).
     */
    public static final double PLATEAU_SLOPE_SHARE = 0.25;
    /** A break must be significant at this level (Davies' test) to be a limit. */
    public static final double SIGNIFICANCE = 0.05;

    /**
     * The first breakpoint of a request-rate fit after which the rate stops growing: the segment before it rises and
     * the one after rises by at most {@link #PLATEAU_SLOPE_SHARE} of that (or falls); empty when the fit has no such
     * break or the break is not significant ({@code breakpointPValue} &gt; {@link #SIGNIFICANCE}; NaN = unknown).
     *
     * @param segments    the fit's linear pieces in x order (one more than breakpoints)
     * @param breakpoints the fit's breakpoints in x order
     */
    public static Optional<ThroughputLimit> detect(List<Segment> segments, List<Breakpoint> breakpoints,
            double breakpointPValue) {
        if (breakpointPValue > SIGNIFICANCE || segments.size() != breakpoints.size() + 1) {
            return Optional.empty();
        }
        for (int i = 0; i < breakpoints.size(); i++) {
            Segment before = segments.get(i);
            Segment after = segments.get(i + 1);
            if (before.getSlope() > 0 && after.getSlope() <= PLATEAU_SLOPE_SHARE * before.getSlope()) {
                Breakpoint b = breakpoints.get(i);
                return Optional.of(new ThroughputLimit(b.getX(), Finite.orNaN(b.getLower95()),
                        Finite.orNaN(b.getUpper95()), Pieces.valueAt(after, b.getX()), before.getSlope(),
                        after.getSlope(), breakpointPValue));
            }
        }
        return Optional.empty();
    }
}
