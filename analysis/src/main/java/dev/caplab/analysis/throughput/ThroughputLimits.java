package dev.caplab.analysis.throughput;

import dev.caplab.analysis.Finite;
import dev.caplab.analysis.fit.Pieces;
import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.RunThroughputLimit;
import dev.caplab.schema.event.Segment;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a run's request rate stopped growing with load, the schema's {@link RunThroughputLimit}: the knee x of the
 * segmented fit of the per-step request rate against x, with its 95 % interval (Muggeo 2003 delta interval, as every
 * caplab knee), the rate at the knee (the plateau), the slopes either side, and the Davies (2002) p-value that a break
 * exists at all. {@link #detect} is the one rule; whether the load generator set it is the conclusion's
 * ({@link GeneratorLimit}).
 */
public final class ThroughputLimits {

    /**
     * The rate grows with load before a throughput knee and at most this share of that growth after it (k6 Cloud's
     * "throughput limit": load keeps rising, the request rate stays flat).
     */
    public static final double PLATEAU_SLOPE_SHARE = 0.25;
    /** A break must be significant at this level (Davies' test) to be a limit. */
    public static final double SIGNIFICANCE = 0.05;

    private ThroughputLimits() {
    }

    /**
     * The first breakpoint of a request-rate fit after which the rate stops growing: the segment before it rises and
     * the one after rises by at most {@link #PLATEAU_SLOPE_SHARE} of that (or falls); empty when the fit has no such
     * break or the break is not significant ({@code breakpointPValue} &gt; {@link #SIGNIFICANCE}; NaN = unknown).
     * Unknown figures (the knee's interval, the p-value) are null; the generator fields are unset.
     *
     * @param segments    the fit's linear pieces in x order (one more than breakpoints)
     * @param breakpoints the fit's breakpoints in x order
     * @param stepsUsed   the steps the fit used
     * @param fittedAt    the fit's time (the end of the step that triggered it)
     */
    public static Optional<RunThroughputLimit> detect(List<Segment> segments, List<Breakpoint> breakpoints,
            double breakpointPValue, int stepsUsed, Instant fittedAt) {
        Objects.requireNonNull(fittedAt, "fittedAt");
        if (breakpointPValue > SIGNIFICANCE || segments.size() != breakpoints.size() + 1) {
            return Optional.empty();
        }
        for (int i = 0; i < breakpoints.size(); i++) {
            Segment before = segments.get(i);
            Segment after = segments.get(i + 1);
            if (before.getSlope() > 0 && after.getSlope() <= PLATEAU_SLOPE_SHARE * before.getSlope()) {
                Breakpoint b = breakpoints.get(i);
                return Optional.of(RunThroughputLimit.newBuilder().setKneeX(b.getX())
                        .setKneeLower95(b.getLower95()).setKneeUpper95(b.getUpper95())
                        .setPlateauRatePerSecond(Pieces.valueAt(after, b.getX()))
                        .setSlopeBeforePerX(before.getSlope()).setSlopeAfterPerX(after.getSlope())
                        .setBreakpointPValue(Finite.orNull(breakpointPValue))
                        .setStepsUsed(stepsUsed).setFittedAt(fittedAt).build());
            }
        }
        return Optional.empty();
    }
}
