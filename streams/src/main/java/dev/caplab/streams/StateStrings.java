package dev.caplab.streams;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Strings in the state stores' binary formats: an int byte length and UTF-8, so no length limit of its own (unlike
 * {@link DataOutputStream#writeUTF}, which throws past 65,535 bytes and killed the topology on one long label).
 * What bounds a string is {@link dev.caplab.streams.run.RunLimits}, checked before anything is stored.
 */
public final class StateStrings {

    private StateStrings() {
    }

    public static void write(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    public static String read(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > in.available()) {
            throw new IOException("string of " + n + " bytes, " + in.available() + " left");
        }
        return new String(in.readNBytes(n), StandardCharsets.UTF_8);
    }

    /** The UTF-8 length of {@code s} without encoding it. */
    public static int utf8Bytes(CharSequence s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    /** Reads one string of a state format: {@link #read} today, {@link DataInputStream#readUTF} in older formats. */
    @FunctionalInterface
    public interface Reader {
        String read(DataInputStream in) throws IOException;

        static Reader of(boolean legacyUtf) {
            return legacyUtf ? in -> in.readUTF() : StateStrings::read;
        }
    }
}
