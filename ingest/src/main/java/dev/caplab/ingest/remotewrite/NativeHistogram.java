package dev.caplab.ingest.remotewrite;

import dev.caplab.ingest.remotewrite.prompb.Types.BucketSpan;
import dev.caplab.ingest.remotewrite.prompb.Types.Histogram;
import java.util.ArrayList;
import java.util.List;

/**
 * A native (sparse, exponential) histogram as cumulative buckets, the shape of a classic histogram: for each bucket
 * its upper bound and the count of observations at or below it, then +Inf = the total count. Stored as
 * {@code _bucket{le}} series, classic histograms and native ones merge the same way (sum the buckets' increases over
 * series and time, then read the quantile off the merged buckets), and no percentile is ever averaged.
 *
 * <p>Bucket bounds follow the native histogram specification: with {@code base = 2^(2^-schema)}, positive bucket
 * {@code i} is {@code (base^(i-1), base^i]}, negative bucket {@code i} is {@code [-base^i, -base^(i-1))}, and the zero
 * bucket holds {@code [-zero_threshold, zero_threshold]}. Integer histograms carry bucket counts as deltas to the
 * previous bucket, float histograms as absolute counts. Only the standard schemas -4..8 are accepted.
 *
 * @param count     observations in total (the +Inf bucket)
 * @param sum       sum of the observations
 * @param buckets   cumulative buckets, ascending upper bound; the last is +Inf
 * @param gauge     a gauge histogram (reset hint GAUGE): its counts go up and down
 */
record NativeHistogram(double count, double sum, List<Bucket> buckets, boolean gauge) {

    static final int MIN_SCHEMA = -4;
    static final int MAX_SCHEMA = 8;

    NativeHistogram {
        buckets = List.copyOf(buckets);
    }

    /** One cumulative bucket: observations {@code <= upperBound}. */
    record Bucket(double upperBound, double cumulativeCount) {
    }

    static NativeHistogram of(Histogram h) {
        int schema = h.getSchema();
        if (schema < MIN_SCHEMA || schema > MAX_SCHEMA) {
            throw new SeriesException("schema", "native histogram schema " + schema + " is not one of the "
                    + "exponential schemas " + MIN_SCHEMA + ".." + MAX_SCHEMA);
        }
        boolean floats = h.getCountCase() == Histogram.CountCase.COUNT_FLOAT;
        double count = floats ? h.getCountFloat() : unsigned(h.getCountInt());
        double zeroCount = h.getZeroCountCase() == Histogram.ZeroCountCase.ZERO_COUNT_FLOAT ? h.getZeroCountFloat()
                : unsigned(h.getZeroCountInt());
        List<Counted> negative = buckets("negative", h.getNegativeSpansList(),
                floats ? h.getNegativeCountsList() : null, h.getNegativeDeltasList());
        List<Counted> positive = buckets("positive", h.getPositiveSpansList(),
                floats ? h.getPositiveCountsList() : null, h.getPositiveDeltasList());

        List<Bucket> cumulative = new ArrayList<>();
        double running = 0;
        // most negative first: highest index of the negative buckets
        for (int i = negative.size() - 1; i >= 0; i--) {
            running += negative.get(i).count();
            cumulative.add(new Bucket(-bound(negative.get(i).index() - 1, schema), running));
        }
        if (zeroCount > 0 || h.getZeroThreshold() > 0) {
            running += zeroCount;
            cumulative.add(new Bucket(h.getZeroThreshold(), running));
        }
        for (Counted bucket : positive) {
            running += bucket.count();
            cumulative.add(new Bucket(bound(bucket.index(), schema), running));
        }
        cumulative.add(new Bucket(Double.POSITIVE_INFINITY, count));
        return new NativeHistogram(count, h.getSum(), cumulative, h.getResetHint() == Histogram.ResetHint.GAUGE);
    }

    /** The upper bound of positive bucket {@code index}: {@code 2^(index * 2^-schema)}. */
    static double bound(long index, int schema) {
        if (schema <= 0) {
            long exponent = Math.max(-4096, Math.min(4096, index)) << -schema;
            return Math.scalb(1.0, (int) Math.max(-2000, Math.min(2000, exponent)));
        }
        int perOctave = 1 << schema;
        long octave = Math.max(-4096, Math.min(4096, Math.floorDiv(index, perOctave)));
        return Math.scalb(Math.pow(2.0, (double) Math.floorMod(index, perOctave) / perOctave), (int) octave);
    }

    /** One bucket as sent: its index and its own (not cumulative) count. */
    private record Counted(long index, double count) {
    }

    /** Each bucket the spans cover, ascending index. */
    private static List<Counted> buckets(String side, List<BucketSpan> spans, List<Double> counts,
            List<Long> deltas) {
        long covered = spans.stream().mapToLong(s -> Integer.toUnsignedLong(s.getLength())).sum();
        int given = counts != null ? counts.size() : deltas.size();
        if (covered != given) {
            throw new SeriesException(side + "_spans", "spans cover " + covered + " buckets but "
                    + given + " " + side + (counts != null ? "_counts" : "_deltas") + " are given");
        }
        List<Counted> out = new ArrayList<>(given);
        long index = 0;
        long absolute = 0;
        int b = 0;
        for (int s = 0; s < spans.size(); s++) {
            BucketSpan span = spans.get(s);
            // the first span's offset is the first index; later offsets are gaps after the previous span
            index += span.getOffset();
            for (int k = 0; k < span.getLength(); k++, b++, index++) {
                double c;
                if (counts != null) {
                    c = counts.get(b);
                } else {
                    absolute += deltas.get(b);
                    c = absolute;
                }
                if (c < 0 || Double.isNaN(c)) {
                    throw new SeriesException(side + (counts != null ? "_counts" : "_deltas"), "bucket " + index
                            + " has a count of " + c);
                }
                out.add(new Counted(index, c));
            }
        }
        return out;
    }

    private static double unsigned(long value) {
        return value >= 0 ? value : Double.parseDouble(Long.toUnsignedString(value));
    }
}
