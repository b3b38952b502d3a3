package dev.caplab.analysis.cliff;

import java.util.Objects;
import java.util.Optional;

/**
 * Whether the curve breaks as a cliff and where: the first cliff step (position by load), the last
 * step before it, the slope ratio that was observed and the extrapolation error at the cliff step.
 */
public record CliffDetection(boolean cliff, CliffReason reason, int cliffPosition, double cliffX, double lastStableX,
                             double slopeRatio, Optional<ExtrapolationError> extrapolation) {
    public CliffDetection {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(extrapolation, "extrapolation");
        if (cliff == (reason == CliffReason.NONE)) {
            throw new IllegalArgumentException("cliff=" + cliff + " inconsistent with reason " + reason);
        }
    }

    /** No cliff found over the steps. */
    public static CliffDetection none() {
        return new CliffDetection(false, CliffReason.NONE, -1, Double.NaN, Double.NaN, Double.NaN, Optional.empty());
    }
}
