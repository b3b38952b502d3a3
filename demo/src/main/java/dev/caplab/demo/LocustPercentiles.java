package dev.caplab.demo;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Locust's response-time bookkeeping (locust/stats.py): times are rounded to 1 ms below 100 ms, 10 ms below
 * 1 s and 100 ms above, counted per value, and a percentile is read from the top of that histogram.
 */
final class LocustPercentiles {

    /** The percentile columns Locust prints, in order. */
    static final double[] LEVELS = {0.5, 0.66, 0.75, 0.8, 0.9, 0.95, 0.98, 0.99, 0.999, 0.9999, 1.0};

    private final NavigableMap<Long, Long> counts = new TreeMap<>();
    private long total;
    private double sum;

    /** {@code StatsEntry._log_time_of_request}'s rounding. */
    static long rounded(double millis) {
        if (millis < 100) {
            return Math.round(millis);
        }
        if (millis < 1000) {
            return Math.round(millis / 10) * 10;
        }
        return Math.round(millis / 100) * 100;
    }

    void add(long roundedMillis) {
        counts.merge(roundedMillis, 1L, Long::sum);
        total++;
        sum += roundedMillis;
    }

    long count() {
        return total;
    }

    double mean() {
        return sum / total;
    }

    long min() {
        return counts.firstKey();
    }

    long max() {
        return counts.lastKey();
    }

    /**
     * {@code StatsEntry.median_response_time}: {@code median_from_dict}, the value holding position (N − 1)/2 from
     * the bottom of the histogram.
     */
    long median() {
        double position = (total - 1) / 2.0;
        for (Map.Entry<Long, Long> e : counts.entrySet()) {
            if (position < e.getValue()) {
                return e.getKey();
            }
            position -= e.getValue();
        }
        return 0;
    }

    /** {@code calculate_response_time_percentile}: the first value from the top where the rest fit under N·p. */
    long percentile(double level) {
        long wanted = (long) (total * level);
        long processed = 0;
        for (Map.Entry<Long, Long> e : counts.descendingMap().entrySet()) {
            processed += e.getValue();
            if (total - processed <= wanted) {
                return e.getKey();
            }
        }
        return 0;
    }
}
