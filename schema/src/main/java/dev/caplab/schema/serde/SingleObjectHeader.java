package dev.caplab.schema.serde;

/** Reads the 10-byte header of Avro single-object encoding: marker C3 01, then the 8-byte little-endian fingerprint. */
final class SingleObjectHeader {

    static final int LENGTH = 10;
    private static final byte MARKER_0 = (byte) 0xC3;
    private static final byte MARKER_1 = (byte) 0x01;

    private SingleObjectHeader() {
    }

    /** The writer fingerprint, or null when the bytes do not start with a single-object header. */
    static Long fingerprintOrNull(byte[] data) {
        if (data.length < LENGTH || data[0] != MARKER_0 || data[1] != MARKER_1) {
            return null;
        }
        long fp = 0;
        for (int i = 9; i >= 2; i--) {
            fp = (fp << 8) | (data[i] & 0xFFL);
        }
        return fp;
    }
}
