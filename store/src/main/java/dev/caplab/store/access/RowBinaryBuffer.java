package dev.caplab.store.access;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A ClickHouse RowBinary body written straight into one array (no per-byte locking as in ByteArrayOutputStream):
 * either growing in memory and sent without copying the bytes once more, or of a fixed size and drained into a
 * stream whenever it fills, so a large batch never exists whole in the heap. Encodings follow ClickHouse's
 * RowBinary format: little-endian fixed-width numbers, LEB128 lengths, a 0/1 null flag before a Nullable value.
 */
public final class RowBinaryBuffer {

    private static final int DRAIN_BYTES = 256 * 1024;

    private final OutputStream drain;
    private byte[] buf;
    private int count;

    /** A buffer that grows in memory. */
    public RowBinaryBuffer(int initialBytes) {
        this.drain = null;
        buf = new byte[Math.max(64, initialBytes)];
    }

    /** A buffer of a fixed size that writes its bytes to {@code drain} whenever it fills; {@link #flush} at the end. */
    public RowBinaryBuffer(OutputStream drain) {
        this.drain = java.util.Objects.requireNonNull(drain, "drain");
        buf = new byte[DRAIN_BYTES];
    }

    /** Writes what is buffered to the drain; nothing to do for an in-memory buffer. */
    public void flush() {
        if (drain != null && count > 0) {
            try {
                drain.write(buf, 0, count);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + count + " bytes of RowBinary", e);
            }
            count = 0;
        }
    }

    /** Bytes held in memory (all bytes written so far, for an in-memory buffer). */
    public int size() {
        return count;
    }

    /** The bytes written, the buffer's own array (valid up to {@link #size()}). */
    public byte[] array() {
        return buf;
    }

    public void reset() {
        count = 0;
    }

    public InputStream asInputStream() {
        return new ByteArrayInputStream(buf, 0, count);
    }

    /** This buffer as an OutputStream, for encoders that write streams. */
    public java.io.OutputStream asOutputStream() {
        return new java.io.OutputStream() {
            @Override
            public void write(int b) {
                uint8(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                bytes(b, off, len);
            }
        };
    }

    private void ensure(int more) {
        if (count + more > buf.length) {
            if (drain != null) {
                flush();
                if (more <= buf.length) {
                    return;
                }
            }
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, count + more));
        }
    }

    /** Bytes already in RowBinary form (a column value encoded once and repeated). */
    public void bytes(byte[] b) {
        bytes(b, 0, b.length);
    }

    /** {@code len} bytes of {@code b} from {@code off}, already in RowBinary form. */
    public void bytes(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buf, count, len);
        count += len;
    }

    public void uint8(int v) {
        ensure(1);
        buf[count++] = (byte) v;
    }

    public void int64(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            buf[count++] = (byte) (v >>> (8 * i));
        }
    }

    public void float64(double v) {
        int64(Double.doubleToRawLongBits(v));
    }

    /** An unsigned LEB128 length, as RowBinary prefixes strings, arrays and maps. */
    public void varint(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[count++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[count++] = (byte) v;
    }

    /** A String column: UTF-8 bytes behind their length; ASCII (the usual names and labels) without a copy. */
    public void string(String s) {
        int n = s.length();
        ensure(n + 10);
        int lengthAt = count;
        if (n < 0x80) {
            int at = lengthAt + 1;
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                if (c >= 0x80) {
                    utf8(s);
                    return;
                }
                buf[at + i] = (byte) c;
            }
            buf[lengthAt] = (byte) n;
            count = at + n;
            return;
        }
        utf8(s);
    }

    private void utf8(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        varint(b.length);
        ensure(b.length);
        System.arraycopy(b, 0, buf, count, b.length);
        count += b.length;
    }

    /** A Nullable(String) column. */
    public void nullableString(String v) {
        uint8(v == null ? 1 : 0);
        if (v != null) {
            string(v);
        }
    }

    /** A Nullable(Int64) column. */
    public void nullableInt64(Long v) {
        uint8(v == null ? 1 : 0);
        if (v != null) {
            int64(v);
        }
    }

    /** A Nullable(Float64) column. */
    public void nullableFloat64(Double v) {
        uint8(v == null ? 1 : 0);
        if (v != null) {
            float64(v);
        }
    }

    /** A DateTime64(6) column: microseconds since the epoch. */
    public void dateTime64Micros(java.time.Instant t) {
        int64(Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000));
    }
}
