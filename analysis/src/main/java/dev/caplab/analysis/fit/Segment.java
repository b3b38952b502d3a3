package dev.caplab.analysis.fit;

/**
 * One linear piece y = intercept + slope·x on [fromX, toX], with standard errors and 95 % slope interval.
 *
 * <p>Standard errors come from the asymptotic covariance σ²(JᵀWJ)⁻¹ of the whole fit
 * (delta method for derived quantities), as R {@code segmented::slope} and {@code intercept} report them.
 */
public record Segment(double fromX, double toX, double intercept, double interceptStdErr,
                      double slope, double slopeStdErr, double slopeLower95, double slopeUpper95) {
    public Segment {
        if (!(fromX <= toX)) {
            throw new IllegalArgumentException("segment fromX " + fromX + " > toX " + toX);
        }
        if (!Double.isFinite(intercept) || !Double.isFinite(slope)) {
            throw new IllegalArgumentException("segment coefficients must be finite: " + intercept + ", " + slope);
        }
    }

    /** y at load {@code x} on this segment's line: intercept + slope·x. */
    public double valueAt(double x) {
        return intercept + slope * x;
    }
}
