package dev.caplab.streams.step;

/**
 * Keys of the sample buffer: {@code runId SEP bucket-start SEP partition:offset}, the bucket start zero-padded so
 * that the store's lexicographic order is time order within a run and a step is one range scan over the buckets it
 * overlaps. One entry holds the samples of one input batch that fall in one bucket: a store write per batch and
 * bucket, not per sample. The origin suffix keeps batches apart and the order of equal timestamps deterministic
 * (replays give the same result).
 */
public final class SampleKeys {

    /** Width of a buffer bucket: a batch spanning a few seconds becomes a few entries. */
    public static final long BUCKET_MICROS = 1_000_000L;
    private static final char SEP = '\u0001';
    private static final char AFTER_SEP = '\u0002';

    private SampleKeys() {
    }

    /** Start of the bucket holding a sample at {@code tMicros}. */
    public static long bucketOf(long tMicros) {
        return Math.floorDiv(tMicros, BUCKET_MICROS) * BUCKET_MICROS;
    }

    /** The entry of the batch at {@code partition}/{@code offset} for the bucket starting at {@code bucketMicros}. */
    public static String of(String runId, long bucketMicros, int partition, long offset) {
        return prefix(runId, bucketMicros) + SEP + partition + ':' + offset;
    }

    /**
     * Chunk {@code chunk} of that entry when a bucket of one batch is cut in several records: chunk 0 is the entry
     * itself, later ones append {@code /nnnn}, which sorts right after it ('/' is below every digit), so key order
     * stays batch order.
     */
    public static String of(String runId, long bucketMicros, int partition, long offset, int chunk) {
        String entry = of(runId, bucketMicros, partition, offset);
        return chunk == 0 ? entry : entry + '/' + String.format(java.util.Locale.ROOT, "%04d", chunk);
    }

    /** The partial of the series {@code seriesKey} in the bucket starting at {@code bucketMicros}. */
    public static String partial(String runId, long bucketMicros, String seriesKey) {
        return prefix(runId, bucketMicros) + SEP + seriesKey;
    }

    /** Inclusive lower bound of the buckets that may hold samples of {@code runId} at or after {@code fromMicros}. */
    public static String lower(String runId, long fromMicros) {
        return prefix(runId, bucketOf(Math.max(0, fromMicros)));
    }

    /** Inclusive upper bound of the buckets that may hold samples of {@code runId} strictly before {@code toMicros}. */
    public static String upperExclusive(String runId, long toMicros) {
        if (toMicros <= 0) {
            return runId + SEP;
        }
        return prefix(runId, bucketOf(toMicros - 1)) + AFTER_SEP;
    }

    /** Inclusive upper bound of every bucket of {@code runId}. */
    public static String runUpper(String runId) {
        return runId + AFTER_SEP;
    }

    public static String runLower(String runId) {
        return runId + SEP;
    }

    private static String prefix(String runId, long tMicros) {
        if (tMicros < 0) {
            throw new IllegalArgumentException("run " + runId + ": negative sample time " + tMicros + " µs");
        }
        return runId + SEP + zeroPadded19(tMicros);
    }

    // String.format("%019d") parsed its pattern once per sample; this is the same text for 0 <= t <= Long.MAX_VALUE.
    private static String zeroPadded19(long t) {
        String digits = Long.toString(t);
        return "0".repeat(19 - digits.length()) + digits;
    }
}
