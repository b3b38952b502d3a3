package dev.caplab.analysis.throughput;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How a step reads a tool's own window percentiles (Locust's history rows, JMeter's listener windows): per quantile,
 * the median of the values the windows reported, never their average (a mean of p95s is no p95 of anything).
 */
public final class WindowPercentiles {

    private WindowPercentiles() {
    }

    /** Per quantile key ("0.95"), the median over {@code windows} of the values that reported it. */
    public static Map<String, Double> combine(List<Map<String, Double>> windows) {
        Map<String, List<Double>> byQuantile = new TreeMap<>();
        for (Map<String, Double> w : windows) {
            w.forEach((q, v) -> byQuantile.computeIfAbsent(q, k -> new ArrayList<>()).add(v));
        }
        Map<String, Double> out = new LinkedHashMap<>();
        byQuantile.forEach((q, v) -> out.put(q, median(v.stream().mapToDouble(Double::doubleValue).toArray())));
        return out;
    }

    /** The middle value, or the mean of the two middle ones; NaN when empty. */
    public static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] s = values.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
