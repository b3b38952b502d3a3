package dev.caplab.streams.aggregate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Transformations of time series: counter values to rates, several series to one aligned sum. */
public final class Series {

    private Series() {
    }

    /**
     * Per-second rates between consecutive samples of one monotonic counter, stamped at the later sample. A drop in
     * value is a counter reset (process restart): the increase is then the new value itself, as Prometheus'
     * {@code rate()} treats it.
     */
    public static List<TimedValue> rates(List<TimedValue> counter) {
        List<TimedValue> out = new ArrayList<>();
        for (int i = 1; i < counter.size(); i++) {
            TimedValue a = counter.get(i - 1);
            TimedValue b = counter.get(i);
            long dtMicros = b.timestampMicros() - a.timestampMicros();
            if (dtMicros <= 0) {
                continue; // a duplicate timestamp carries no rate information
            }
            double increase = b.value() >= a.value() ? b.value() - a.value() : b.value();
            out.add(new TimedValue(b.timestampMicros(), increase * 1e6 / dtMicros));
        }
        return out;
    }

    /**
     * Sum of several series aligned to buckets of {@code bucketMicros}: within a bucket each series contributes the
     * mean of its values there, or its last earlier value when it has none (sampling jitter must not make the sum
     * dip). Stamped at bucket start.
     */
    public static List<TimedValue> alignedSum(Map<String, List<TimedValue>> series, long bucketMicros) {
        TreeMap<Long, Map<String, double[]>> byBucket = new TreeMap<>();
        for (Map.Entry<String, List<TimedValue>> s : series.entrySet()) {
            for (TimedValue v : s.getValue()) {
                long bucket = Math.floorDiv(v.timestampMicros(), bucketMicros) * bucketMicros;
                double[] acc = byBucket.computeIfAbsent(bucket, b -> new TreeMap<>())
                        .computeIfAbsent(s.getKey(), k -> new double[2]);
                acc[0] += v.value();
                acc[1]++;
            }
        }
        Map<String, Double> last = new TreeMap<>();
        List<TimedValue> out = new ArrayList<>();
        for (Map.Entry<Long, Map<String, double[]>> b : byBucket.entrySet()) {
            b.getValue().forEach((key, acc) -> last.put(key, acc[0] / acc[1]));
            double sum = 0;
            for (double v : last.values()) {
                sum += v;
            }
            out.add(new TimedValue(b.getKey(), sum));
        }
        return out;
    }

    public static double[] values(List<TimedValue> series) {
        double[] out = new double[series.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = series.get(i).value();
        }
        return out;
    }

    public static List<TimedValue> from(List<TimedValue> series, long fromMicros) {
        return series.stream().filter(v -> v.timestampMicros() >= fromMicros).toList();
    }
}
