package dev.caplab.analysis;

import java.util.OptionalDouble;

/**
 * The one place a figure crosses between the math and the schema's records. The math works on doubles, where NaN
 * means "could not be computed" and ±∞ "does not grow with load"; a record stores such a figure as null, never as a
 * number a reader could take for a measurement, and a null read back is NaN again.
 */
public final class Finite {

    private Finite() {
    }

    /** {@code v} as a record holds it: null unless finite. */
    public static Double orNull(double v) {
        return Double.isFinite(v) ? v : null;
    }

    /** {@code v} as a record holds it: null when absent or not finite. */
    public static Double orNull(OptionalDouble v) {
        return v.isPresent() ? orNull(v.getAsDouble()) : null;
    }

    /** A record's optional figure as an optional: empty when absent. */
    public static OptionalDouble optional(Double v) {
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }

    /** A record's optional figure as the math reads it: NaN when absent. */
    public static double orNaN(Double v) {
        return v == null ? Double.NaN : v;
    }
}
