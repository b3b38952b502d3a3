package dev.caplab.stepper;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The steps of a stepped-load run: the load of each step in the named dimension (e.g. users), how long each step
 * holds, and the warm-up at its start whose samples are excluded from sustained figures.
 */
public record StepPlan(List<Double> loads, Duration hold, Duration warmup, String dimension) {

    public StepPlan {
        loads = List.copyOf(loads);
        if (loads.isEmpty()) {
            throw new IllegalArgumentException("at least one step load is required, e.g. --steps 12,25,50");
        }
        for (double load : loads) {
            if (!(load >= 0) || Double.isInfinite(load)) {
                throw new IllegalArgumentException("step loads must be finite and >= 0, got " + load);
            }
        }
        Objects.requireNonNull(hold, "hold");
        Objects.requireNonNull(warmup, "warmup");
        if (hold.isNegative() || hold.isZero()) {
            throw new IllegalArgumentException("hold must be positive, was " + hold);
        }
        if (warmup.isNegative() || warmup.compareTo(hold) >= 0) {
            throw new IllegalArgumentException("warm-up must be >= 0 and shorter than the hold (" + hold + "), was "
                    + warmup);
        }
        if (dimension == null || dimension.isBlank()) {
            throw new IllegalArgumentException("load dimension name must not be blank");
        }
    }
}
