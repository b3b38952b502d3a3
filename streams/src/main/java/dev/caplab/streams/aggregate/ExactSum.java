package dev.caplab.streams.aggregate;

import java.util.Arrays;

/**
 * A sum of doubles kept exactly, as non-overlapping partials (Shewchuk 1997, "Adaptive precision floating-point
 * arithmetic"; the algorithm of Python's {@code math.fsum}), and read back correctly rounded. Why not a plain
 * {@code double}: floating-point addition is not associative, so a sum folded in arrival order would differ in its
 * last bits between two arrival orders of the same samples; the exact sum, and so its rounding, does not.
 */
public final class ExactSum {

    private double[] partials;
    private int size;
    private double special; // sum of non-finite inputs (inf, NaN): order-independent on its own

    public ExactSum() {
        this(new double[2], 0, 0);
    }

    private ExactSum(double[] partials, int size, double special) {
        this.partials = partials;
        this.size = size;
        this.special = special;
    }

    /** The sum of the given components (as written by {@link #components()}), e.g. decoded from state. */
    public static ExactSum of(double[] components) {
        ExactSum s = new ExactSum();
        for (double c : components) {
            s.add(c);
        }
        return s;
    }

    public void add(double x) {
        if (!Double.isFinite(x)) {
            special += x;
            return;
        }
        int i = 0;
        for (int j = 0; j < size; j++) {
            double y = partials[j];
            if (Math.abs(x) < Math.abs(y)) {
                double t = x;
                x = y;
                y = t;
            }
            double hi = x + y;
            double lo = y - (hi - x);
            if (lo != 0.0) {
                partials[i++] = lo;
            }
            x = hi;
        }
        if (i == partials.length) {
            partials = Arrays.copyOf(partials, i * 2);
        }
        partials[i] = x;
        size = i + 1;
    }

    public void add(ExactSum other) {
        for (int j = 0; j < other.size; j++) {
            add(other.partials[j]);
        }
        special += other.special;
    }

    /** The exact sum rounded to the nearest double (ties to even), whatever order the terms came in. */
    public double value() {
        if (special != 0.0 || Double.isNaN(special)) {
            return special;
        }
        int n = size;
        double hi = 0.0;
        if (n > 0) {
            hi = partials[--n];
            double lo = 0.0;
            while (n > 0) {
                double x = hi;
                double y = partials[--n];
                hi = x + y;
                double yr = hi - x;
                lo = y - yr;
                if (lo != 0.0) {
                    break;
                }
            }
            if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
                double y = lo * 2;
                double x = hi + y;
                double yr = x - hi;
                if (y == yr) {
                    hi = x;
                }
            }
        }
        return hi;
    }

    /** The partials (plus the non-finite part when there is one), enough to rebuild the same exact sum. */
    public double[] components() {
        double[] out = Arrays.copyOf(partials, size + (special == 0.0 ? 0 : 1));
        if (special != 0.0 || Double.isNaN(special)) {
            out[size] = special;
        }
        return out;
    }
}
