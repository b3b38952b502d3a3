package dev.caplab.streams.step;

/**
 * Keys of the sample buffer: {@code runId SEP time SEP partition:offset:index}, zero-padded so that the store's
 * lexicographic order is event-time order within a run and a step is one range scan. The suffix makes every
 * input sample a distinct key and the order of equal timestamps deterministic (replays give the same result).
 */
public final class SampleKeys {

    private static final char SEP = '\u0001';
    private static final char AFTER_SEP = '\u0002';

    private SampleKeys() {
    }

    public static String of(String runId, long tMicros, int partition, long offset, int index) {
        return prefix(runId, tMicros) + SEP + partition + ':' + offset + ':' + index;
    }

    /** Inclusive lower bound of samples of {@code runId} at or after {@code fromMicros}. */
    public static String lower(String runId, long fromMicros) {
        return prefix(runId, Math.max(0, fromMicros));
    }

    /** Inclusive upper bound of samples of {@code runId} strictly before {@code toMicros}. */
    public static String upperExclusive(String runId, long toMicros) {
        if (toMicros <= 0) {
            return runId + SEP;
        }
        return prefix(runId, toMicros - 1) + AFTER_SEP;
    }

    /** Inclusive upper bound of every sample of {@code runId}. */
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
        return runId + SEP + String.format("%019d", tMicros);
    }
}
