package dev.caplab.schema.serde;

/** Reads the 10-byte header of Avro single-object encoding: marker C3 01, then the 8-byte little-endian fingerprint. */
final class SingleObjectHeader {

    static final int LENGTH = 10;
    private static final byte MARKER_0 = (byte) 0xC3;
    private static final byte MARKER_1 = (byte) 0x01;

    private SingleObjectHeader() {
    }

    /** The header of bodies written with the schema of {@code fingerprint}. */
    static byte[] of(long fingerprint) {
        byte[] header = new byte[LENGTH];
        header[0] = MARKER_0;
        header[1] = MARKER_1;
        for (int i = 0; i < 8; i++) {
            header[2 + i] = (byte) (fingerprint >>> (8 * i));
        }
        return header;
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
