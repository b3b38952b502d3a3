package dev.caplab.ingest.influx;

import dev.caplab.schema.text.ByteStrings;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/**
 * The series keys (measurement and tag set, the bytes before a line's first unescaped space) a parser has fully
 * parsed and checked, so the next line of the same series parses only its fields and timestamp, and all its
 * samples share one immutable label map: a load tool writes the same few series key over and over (a k6 line has
 * a dozen tags), and the tag walk, its map and its checks were most of the parser's time. Keyed by the exact bytes
 * and the request's default run (the {@code db} parameter decides the run of lines without a run tag).
 * Direct-mapped and small; not thread-safe (one per parser).
 */
final class SeriesCache {

    private static final int SLOTS = 1024;
    private static final int MAX_KEY_BYTES = 1024;

    /** What a series key was parsed into. */
    record Series(String measurement, String runId, String source, Map<String, String> labels) {
    }

    private final byte[][] keys = new byte[SLOTS][];
    private final String[] defaultRuns = new String[SLOTS];
    private final Series[] values = new Series[SLOTS];
    private int lastEnd;

    /**
     * The series whose key starts at {@code buf[from]} (the line ends by {@code end}), if seen with the same default run; then {@link #lastEnd()}
     * is the index of the space that ends the key. Null when unknown, or when the line has no unescaped space.
     */
    Series find(byte[] buf, int from, int end, String defaultRunId) {
        int to = keyEnd(buf, from, end);
        if (to < 0) {
            return null;
        }
        int slot = slot(buf, from, to);
        byte[] key = keys[slot];
        if (key != null && Arrays.equals(key, 0, key.length, buf, from, to)
                && Objects.equals(defaultRuns[slot], defaultRunId)) {
            lastEnd = to;
            return values[slot];
        }
        return null;
    }

    /** Where the key found by the last successful {@link #find} ends. */
    int lastEnd() {
        return lastEnd;
    }

    /** Remembers {@code series} for the key {@code buf[from, to)} under {@code defaultRunId}. */
    void remember(byte[] buf, int from, int to, String defaultRunId, Series series) {
        if (to - from > MAX_KEY_BYTES) {
            return;
        }
        int slot = slot(buf, from, to);
        keys[slot] = Arrays.copyOfRange(buf, from, to);
        defaultRuns[slot] = defaultRunId;
        values[slot] = series;
    }

    /**
     * The first space not escaped by a backslash (a backslash before ',', ' ', '=' or '\' escapes it, as the
     * parser's tokens read it), or -1 at a line end or past {@link #MAX_KEY_BYTES}.
     */
    private static int keyEnd(byte[] buf, int from, int end) {
        int limit = Math.min(end, from + MAX_KEY_BYTES + 1);
        int i = from;
        // Eight bytes at a time while none of them is a space, line end or backslash: the byte-at-a-time walk over
        // a k6 series key (~180 bytes) was the largest single cost of parsing a line. A skipped word holds no
        // backslash, so no escape spans a word boundary.
        while (i + Long.BYTES <= limit && !anySpecial((long) LONGS.get(buf, i))) {
            i += Long.BYTES;
        }
        for (; i < limit; i++) {
            byte b = buf[i];
            if (b == ' ') {
                return i;
            }
            if (b == '\n' || b == '\r') {
                return -1;
            }
            if (b == '\\' && i + 1 < end) {
                byte next = buf[i + 1];
                if (next == ',' || next == ' ' || next == '=' || next == '\\') {
                    i++;
                }
            }
        }
        return -1;
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    /** Whether one of the word's eight bytes is ' ', '\n', '\r' or '\\'. */
    private static boolean anySpecial(long word) {
        return (zeroByte(word ^ (ONES * ' ')) | zeroByte(word ^ (ONES * '\n')) | zeroByte(word ^ (ONES * '\r'))
                | zeroByte(word ^ (ONES * '\\'))) != 0;
    }

    /** Non-zero exactly when some byte of {@code x} is zero (the classic SWAR test). */
    private static long zeroByte(long x) {
        return (x - ONES) & ~x & HIGHS;
    }

    private static int slot(byte[] buf, int from, int to) {
        return ByteStrings.slot(buf, from, to, SLOTS);
    }
}
