package dev.caplab.query.plan;

/**
 * One resource of a tier under the profile: the ceiling C, what the profile needs (base + slope·x), the share of the
 * ceiling that is, and the safe load x_max = (C·margin − base)/slope, capped at the last stable step past a cliff.
 */
public record ResourceNeed(String resource, double ceiling, double needed, double utilisation, double safeX,
                           double safeXStdErr, boolean cappedByCliff) {
}
