package dev.caplab.query.report;

import java.util.stream.DoubleStream;

/** An axis range [min, max] with min < max; charts of comparable runs share one. */
record Range(double min, double max) {

    Range {
        if (!(Double.isFinite(min) && Double.isFinite(max) && min < max)) {
            throw new IllegalArgumentException("axis range [" + min + ", " + max + "] is empty or not finite");
        }
    }

    /** From 0 (loads, resources, rates and latencies are never negative here) to the largest finite value. */
    static Range fromZero(DoubleStream values) {
        double max = values.filter(Double::isFinite).max().orElse(1);
        return new Range(Math.min(0, max), max > 0 ? max * 1.05 : 1);
    }

    Range union(Range other) {
        return new Range(Math.min(min, other.min), Math.max(max, other.max));
    }

    /** Where {@code value} falls, 0 at min and 1 at max. */
    double fraction(double value) {
        return (value - min) / (max - min);
    }
}
