package dev.caplab.analysis.conclusion;

import java.util.OptionalDouble;

/**
 * How the run conclusion's records store a figure: a non-finite number (NaN: unknown, ±∞: the resource does not grow
 * with load) is stored as null, the one rule every figure of the conclusion goes through.
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
