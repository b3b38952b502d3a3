package dev.caplab.analysis.capacity;

import dev.caplab.analysis.fit.FitStatistics;
import dev.caplab.analysis.fit.LinearFit;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The linear capacity formula on pre-knee steps: the largest load whose planned use, on the line fitted below the
 * knee, stays within the planning margin of the resource's ceiling (DESIGN "Capacity").
 */
public final class CapacityModel {
    private CapacityModel() {
    }

    /**
     * x_max = (C·margin − base)/slope; Var x_max = (Var b₀ + x²·Var b₁ + 2x·Cov(b₀,b₁))/slope² (delta method,
     * the inverse-prediction variance of Draper &amp; Smith §3.2 without the new-observation term).
     *
     * @param lastStableX the last step before a cliff, if one was seen: safe load never goes beyond it
     */
    public static CapacityEstimate estimate(String resource, LinearFit line, double ceiling, double margin,
                                            OptionalDouble lastStableX) {
        double target = ceiling * margin;
        double xMax, xFull, se;
        if (line.slope() <= 0) {
            xMax = Double.POSITIVE_INFINITY;
            xFull = Double.POSITIVE_INFINITY;
            se = Double.NaN;
        } else {
            xMax = (target - line.base()) / line.slope();
            xFull = (ceiling - line.base()) / line.slope();
            se = line.meanStdErr(xMax) / line.slope();
        }
        boolean capped = lastStableX.isPresent() && xMax >= lastStableX.getAsDouble();
        double safe = Math.max(0, capped ? lastStableX.getAsDouble() : xMax);
        return new CapacityEstimate(resource, ceiling, margin, xMax, se, xFull, capped, safe);
    }

    /**
     * 95 % interval of the safe capacity {@code c} on {@code line}: x_max ± t(0.975, dof)·SE(x_max), clipped at 0.
     * Empty without residual degrees of freedom, when the resource does not grow with load, or when a cliff capped
     * the safe x (the cap is a measured step, not an estimate).
     */
    public static Optional<Interval> safeInterval95(LinearFit line, CapacityEstimate c) {
        if (c.cappedByCliff() || line.degreesOfFreedom() < 1 || !Double.isFinite(c.xMax())
                || !Double.isFinite(c.xMaxStdErr())) {
            return Optional.empty();
        }
        double half = FitStatistics.tQuantile(0.95, line.degreesOfFreedom()) * c.xMaxStdErr();
        return Optional.of(new Interval(Math.max(0, c.xMax() - half), Math.max(0, c.xMax() + half)));
    }

    /** A closed interval [lower, upper]. */
    public record Interval(double lower, double upper) {
        public Interval {
            if (!(lower <= upper)) {
                throw new IllegalArgumentException("interval lower " + lower + " > upper " + upper);
            }
        }
    }
}
