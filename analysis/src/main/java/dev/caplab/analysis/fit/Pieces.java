package dev.caplab.analysis.fit;

import dev.caplab.analysis.Finite;
import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.Segment;

/**
 * A fit's pieces as the schema's records ({@link Segment}, {@link Breakpoint}): the one place they are made, checked
 * and read. The math works on doubles, where NaN means "could not be computed"; a record holds such a figure as null
 * ({@link Finite}).
 */
public final class Pieces {

    private Pieces() {
    }

    /**
     * One linear piece y = intercept + slope·x on [fromX, toX] with its standard errors and 95 % slope interval
     * (from the asymptotic covariance σ²(JᵀWJ)⁻¹ of the whole fit, delta method for derived quantities, as R
     * {@code segmented::slope} and {@code intercept} report them).
     *
     * @throws IllegalArgumentException when fromX &gt; toX (or either is NaN) or a coefficient is not finite
     */
    public static Segment segment(double fromX, double toX, double intercept, double interceptStdErr, double slope,
            double slopeStdErr, double slopeLower95, double slopeUpper95) {
        if (!(fromX <= toX)) {
            throw new IllegalArgumentException("segment fromX " + fromX + " > toX " + toX);
        }
        if (!Double.isFinite(intercept) || !Double.isFinite(slope)) {
            throw new IllegalArgumentException("segment coefficients must be finite: " + intercept + ", " + slope);
        }
        return Segment.newBuilder().setFromX(fromX).setToX(toX)
                .setIntercept(intercept).setInterceptStdErr(Finite.orNull(interceptStdErr))
                .setSlope(slope).setSlopeStdErr(Finite.orNull(slopeStdErr))
                .setSlopeLower95(Finite.orNull(slopeLower95)).setSlopeUpper95(Finite.orNull(slopeUpper95)).build();
    }

    /**
     * A fitted line as the one piece on [fromX, toX], its slope interval slope ± t(0.975, dof)·SE; the interval is
     * unknown without residual degrees of freedom.
     */
    public static Segment line(LinearFit line, double fromX, double toX) {
        double t = line.degreesOfFreedom() >= 1 ? FitStatistics.tQuantile(0.95, line.degreesOfFreedom()) : Double.NaN;
        return segment(fromX, toX, line.base(), line.baseStdErr(), line.slope(), line.slopeStdErr(),
                line.slope() - t * line.slopeStdErr(), line.slope() + t * line.slopeStdErr());
    }

    /**
     * A fitted breakpoint ψ with its standard error and 95 % interval ψ ± t(0.975, n−p)·SE (the "delta" interval of R
     * {@code segmented::confint.segmented}, Muggeo 2003).
     *
     * @throws IllegalArgumentException when x is not finite or the interval is inverted
     */
    public static Breakpoint breakpoint(double x, double stdErr, double lower95, double upper95) {
        if (!Double.isFinite(x)) {
            throw new IllegalArgumentException("breakpoint x must be finite, got " + x);
        }
        if (lower95 > upper95) {
            throw new IllegalArgumentException("breakpoint interval inverted: " + lower95 + " > " + upper95);
        }
        return Breakpoint.newBuilder().setX(x).setStdErr(Finite.orNull(stdErr))
                .setLower95(Finite.orNull(lower95)).setUpper95(Finite.orNull(upper95)).build();
    }

    /** y at load {@code x} on the segment's line: intercept + slope·x. */
    public static double valueAt(Segment segment, double x) {
        return segment.getIntercept() + segment.getSlope() * x;
    }


}
