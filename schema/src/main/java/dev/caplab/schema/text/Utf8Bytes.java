package dev.caplab.schema.text;

/**
 * How many bytes a text takes in UTF-8, counted without encoding it: what every limit on names and labels is stated
 * in, and what a state record's size is estimated from.
 */
public final class Utf8Bytes {

    private Utf8Bytes() {
    }

    /**
     * The UTF-8 length of {@code s}: 1 byte below U+0080, 2 below U+0800, 4 for a surrogate pair, 3 for any other
     * char (a lone surrogate too: never fewer than an encoder writes for it).
     */
    public static int of(CharSequence s) {
        int length = s.length();
        long bytes = length;
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                continue;
            }
            if (c < 0x800) {
                bytes += 1;
            } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 2;
                i++;
            } else {
                bytes += 2;
            }
        }
        return (int) Math.min(bytes, Integer.MAX_VALUE);
    }

    /**
     * The UTF-8 length of {@code s} when it may exceed {@code limit}; else its char count, which is then within the
     * limit too (a char is at most 3 bytes), so a short text is never scanned.
     */
    public static int boundedBy(CharSequence s, int limit) {
        return 3L * s.length() <= limit ? s.length() : of(s);
    }
}
