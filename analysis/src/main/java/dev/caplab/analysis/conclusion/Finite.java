package dev.caplab.analysis.conclusion;

import java.util.OptionalDouble;

/**
 * The one place a figure of the run conclusion's records becomes null: a non-finite number (NaN: unknown, ±∞: the
 * resource does not grow with load) is stored as null, never as a number a reader could take for a measurement.
 */
final class Finite {

    private Finite() {
    }

    static Double orNull(double v) {
        return Double.isFinite(v) ? v : null;
    }

    static Double orNull(OptionalDouble v) {
        return v.isPresent() ? orNull(v.getAsDouble()) : null;
    }
}
