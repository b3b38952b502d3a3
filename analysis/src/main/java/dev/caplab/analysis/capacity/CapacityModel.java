package dev.caplab.analysis.capacity;

import dev.caplab.analysis.fit.LinearFit;
import java.util.OptionalDouble;

/** The linear capacity formula on pre-knee steps (field report 000, "Формула прикидки ёмкости"). */
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
}
