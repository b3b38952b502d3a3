package dev.caplab.schema.text;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A small direct-mapped cache from UTF-8 byte slices to Strings. Line protocol repeats the same measurement, tag
 * keys and tag values on every line, and a SampleBatch the same source, metric and labels on every sample, so
 * decoding each once saves most of a parser's or decoder's allocation. Not thread-safe.
 */
public final class ByteStrings {

    private static final int SLOTS = 4096;
    private static final int MAX_CACHED_LENGTH = 128;

    private final byte[][] keys = new byte[SLOTS][];
    private final String[] values = new String[SLOTS];

    /**
     * The slot of {@code buf[from, to)} in a direct-mapped table of {@code slots} (a power of two) entries: a
     * multiplicative hash of the bytes taken eight at a time, then mixed (MurmurHash3's finaliser). Shared by the
     * byte-keyed caches of parsers and decoders, which hash every sample's label block (~200 bytes): byte-at-a-time
     * FNV-1a, one dependent multiply per byte, was the largest single cost of decoding a SampleBatch.
     */
    public static int slot(byte[] buf, int from, int to, int slots) {
        long h = 0x9E3779B97F4A7C15L ^ (to - from);
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            h = Long.rotateLeft((h ^ (long) LONGS.get(buf, i)) * 0x9E3779B97F4A7C15L, 29);
        }
        for (; i < to; i++) {
            h = (h ^ (buf[i] & 0xFF)) * 0x100000001B3L;
        }
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        return (int) h & (slots - 1);
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);

    /** The String of the UTF-8 bytes {@code buf[from, to)}, the same instance as last time for the same bytes. */
    public String get(byte[] buf, int from, int to) {
        int length = to - from;
        if (length > MAX_CACHED_LENGTH) {
            return new String(buf, from, length, StandardCharsets.UTF_8);
        }
        int slot = slot(buf, from, to, SLOTS);
        byte[] key = keys[slot];
        if (key != null && Arrays.equals(key, 0, key.length, buf, from, to)) {
            return values[slot];
        }
        String value = new String(buf, from, length, StandardCharsets.UTF_8);
        keys[slot] = Arrays.copyOfRange(buf, from, to);
        values[slot] = value;
        return value;
    }
}
