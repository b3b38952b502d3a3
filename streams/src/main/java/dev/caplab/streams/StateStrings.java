package dev.caplab.streams;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Strings in the state stores' binary formats: an int byte length and UTF-8, so no length limit of its own (unlike
 * {@link DataOutputStream#writeUTF}, which throws past 65,535 bytes and killed the topology on one long label).
 * What bounds a string is {@link dev.caplab.streams.run.RunLimits}, checked before anything is stored; its size is
 * {@link dev.caplab.schema.text.Utf8Bytes#of}.
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

    /** Reads one string of a state format: {@link #read} today, {@link DataInputStream#readUTF} in older formats. */
    @FunctionalInterface
    public interface Reader {
        String read(DataInputStream in) throws IOException;

        static Reader of(boolean legacyUtf) {
            return legacyUtf ? in -> in.readUTF() : StateStrings::read;
        }
    }
}
