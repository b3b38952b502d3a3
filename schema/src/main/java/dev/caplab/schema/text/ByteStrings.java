package dev.caplab.schema.text;

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
     * The slot of {@code buf[from, to)} in a direct-mapped table of {@code slots} (a power of two) entries: FNV-1a
     * of the bytes, its high half folded in. Shared by the byte-keyed caches of parsers and decoders.
     */
    public static int slot(byte[] buf, int from, int to, int slots) {
        int hash = 0x811c9dc5;
        for (int i = from; i < to; i++) {
            hash = (hash ^ buf[i]) * 0x01000193;
        }
        return (hash ^ (hash >>> 16)) & (slots - 1);
    }

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
