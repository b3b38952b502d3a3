package dev.caplab.demo;

import java.util.SplittableRandom;

/**
 * Deterministic series shaping: seeded noise around a level, then an exact mean, an exact peak or an exact sum,
 * so the statistics a report published are what the generated samples yield, and the rest looks measured.
 */
final class Shapes {

    private Shapes() {
    }

    /** Zero-mean triangular noise in [-1, 1]; SplittableRandom's sequence is specified, so runs repeat exactly. */
    static double noise(SplittableRandom random) {
        return random.nextDouble() - random.nextDouble();
    }

    /** {@code level × (1 + relative × noise)} for each of {@code n} samples. */
    static double[] around(SplittableRandom random, int n, double level, double relative) {
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = level * (1 + relative * noise(random));
        }
        return values;
    }

    /** Shifts values[from, to) so their mean is exactly {@code mean}. */
    static void shiftToMean(double[] values, int from, int to, double mean) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += values[i];
        }
        double delta = mean - sum / (to - from);
        for (int i = from; i < to; i++) {
            values[i] += delta;
        }
    }

    /**
     * Puts {@code peak} at {@code at} and shifts the other values of [from, to) so the mean over [from, to) stays
     * exactly {@code mean}; fails if another value would reach the peak, since the peak must stay the maximum.
     */
    static void placePeakKeepingMean(double[] values, int from, int to, int at, double peak, double mean) {
        values[at] = peak;
        double others = 0;
        for (int i = from; i < to; i++) {
            if (i != at) {
                others += values[i];
            }
        }
        double delta = (mean * (to - from) - peak - others) / (to - from - 1);
        for (int i = from; i < to; i++) {
            if (i != at) {
                values[i] += delta;
            }
        }
        requirePeak(values, from, to, at);
    }

    /** Puts {@code peak} at {@code at}; fails if any other value of [from, to) is not below it. */
    static void placePeak(double[] values, int from, int to, int at, double peak) {
        values[at] = peak;
        requirePeak(values, from, to, at);
    }

    private static void requirePeak(double[] values, int from, int to, int at) {
        for (int i = from; i < to; i++) {
            if (i != at && values[i] >= values[at]) {
                throw new IllegalStateException("value " + values[i] + " at " + i + " reaches the peak " + values[at]
                        + " placed at " + at + ": lower the noise or the level");
            }
        }
    }

    /** Scales values[from, to) so they add up to exactly {@code sum}. */
    static void scaleToSum(double[] values, int from, int to, double sum) {
        double actual = 0;
        for (int i = from; i < to; i++) {
            actual += values[i];
        }
        if (actual <= 0) {
            throw new IllegalStateException("cannot scale a non-positive series to " + sum);
        }
        for (int i = from; i < to; i++) {
            values[i] *= sum / actual;
        }
    }

    /** Whole numbers with exactly {@code total} in sum, each proportional to its weight (largest remainder). */
    static long[] apportion(double[] weights, long total) {
        double sum = 0;
        for (double w : weights) {
            sum += w;
        }
        long[] counts = new long[weights.length];
        double[] remainders = new double[weights.length];
        long given = 0;
        for (int i = 0; i < weights.length; i++) {
            double exact = total * weights[i] / sum;
            counts[i] = (long) Math.floor(exact);
            remainders[i] = exact - counts[i];
            given += counts[i];
        }
        for (long left = total - given; left > 0; left--) {
            int best = 0;
            for (int i = 1; i < remainders.length; i++) {
                if (remainders[i] > remainders[best]) {
                    best = i;
                }
            }
            counts[best]++;
            remainders[best] = -1;
        }
        return counts;
    }

    /** Linear ramp from {@code from} to {@code to} at position i of n (i = n reaches {@code to}). */
    static double ramp(double from, double to, int i, int n) {
        return from + (to - from) * Math.min(1.0, (double) i / n);
    }
}
