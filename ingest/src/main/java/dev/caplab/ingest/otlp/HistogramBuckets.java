package dev.caplab.ingest.otlp;

import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * OTLP histogram buckets as Prometheus-style cumulative buckets: upper bound ({@code le} label text) to the number
 * of observations at or below it, ascending, ending with {@code +Inf} = the point's count. Percentiles are rebuilt
 * from these as Prometheus' {@code histogram_quantile} does (linear interpolation within a bucket), never by
 * averaging percentiles. A cumulative count per bound also stays one monotonic series when an exponential
 * histogram changes scale: the count at or below 2.0 is the same whatever the bucket width.
 */
final class HistogramBuckets {

    static final String INF = "+Inf";

    private HistogramBuckets() {
    }

    /** Explicit bounds b0 < b1 < ...: bucket i holds (b[i-1], b[i]], the last one (b[n-1], +Inf). */
    static Map<String, Double> explicit(HistogramDataPoint p) {
        List<Double> bounds = p.getExplicitBoundsList();
        List<Long> counts = p.getBucketCountsList();
        Map<String, Double> out = new LinkedHashMap<>();
        if (counts.isEmpty()) {
            return out;
        }
        if (counts.size() != bounds.size() + 1) {
            throw new IllegalArgumentException(counts.size() + " bucket counts for " + bounds.size()
                    + " explicit bounds: there must be one more count than bounds");
        }
        double cumulative = 0;
        for (int i = 0; i < bounds.size(); i++) {
            if (i > 0 && !(bounds.get(i) > bounds.get(i - 1))) {
                throw new IllegalArgumentException("explicit bounds must be strictly increasing: " + bounds);
            }
            cumulative += unsigned(counts.get(i));
            out.put(le(bounds.get(i)), cumulative);
        }
        out.put(INF, cumulative + unsigned(counts.getLast()));
        return out;
    }

    /**
     * Exponential buckets: with base = 2^(2^-scale), positive bucket index i holds (base^i, base^(i+1)], negative
     * bucket index i holds [-base^(i+1), -base^i), the zero bucket [-zero_threshold, zero_threshold] (OTLP data
     * model). Cumulated from the most negative bucket up: negative buckets (upper end -base^i), the zero bucket
     * (upper end zero_threshold), positive buckets (upper end base^(i+1)), then +Inf.
     */
    static Map<String, Double> exponential(ExponentialHistogramDataPoint p) {
        int scale = p.getScale();
        if (scale < -10 || scale > 20) {
            throw new IllegalArgumentException("scale " + scale + " is outside the OTLP range -10..20");
        }
        Map<String, Double> out = new LinkedHashMap<>();
        double cumulative = 0;
        ExponentialHistogramDataPoint.Buckets negative = p.getNegative();
        for (int k = negative.getBucketCountsCount() - 1; k >= 0; k--) {
            cumulative += unsigned(negative.getBucketCounts(k));
            out.put(le(-power(scale, (long) negative.getOffset() + k)), cumulative);
        }
        cumulative += unsigned(p.getZeroCount());
        out.put(le(p.getZeroThreshold()), cumulative);
        ExponentialHistogramDataPoint.Buckets positive = p.getPositive();
        for (int k = 0; k < positive.getBucketCountsCount(); k++) {
            cumulative += unsigned(positive.getBucketCounts(k));
            out.put(le(power(scale, (long) positive.getOffset() + k + 1)), cumulative);
        }
        out.put(INF, Math.max(cumulative, unsigned(p.getCount())));
        return out;
    }

    /** base^index = 2^(index * 2^-scale); exact for scale <= 0, within an ulp of the true bound otherwise. */
    static double power(int scale, long index) {
        return Math.pow(2, Math.scalb((double) index, -scale));
    }

    /** Bound as label text: "0.005", "5" for integral bounds (Prometheus' classic spelling), "+Inf". */
    static String le(double bound) {
        if (bound == Double.POSITIVE_INFINITY) {
            return INF;
        }
        if (bound == Math.rint(bound) && Math.abs(bound) < 1e15) {
            return Long.toString((long) bound);
        }
        return Double.toString(bound);
    }

    /** An OTLP uint64 count as a double. */
    static double unsigned(long count) {
        return count >= 0 ? count : count + 0x1p64;
    }
}
