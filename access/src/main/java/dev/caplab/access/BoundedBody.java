package dev.caplab.access;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import java.util.zip.ZipException;

/**
 * The one reader of request bodies for every caplab port (HTTP ingest on the web port, the embedded ClickHouse
 * interface): it decodes the {@code Content-Encoding} and bounds what is read, decided once here.
 *
 * <ul>
 *   <li>{@code gzip} (RFC 1952) and {@code deflate} (zlib, RFC 1950, as HTTP defines it) are decoded; none,
 *       {@code identity}, and the one encoding an endpoint decodes itself ({@code selfDecoded}: remote write's snappy
 *       block, which is no stream) pass as they are; any other encoding fails with
 *       {@link UnsupportedEncodingException} before a byte is read.</li>
 *   <li>At most {@code limitBytes} are read on the wire and, again, after decoding (a compression bomb stops at the
 *       limit, not at out-of-memory), and a decoded body may expand to at most {@link #MAX_EXPANSION} times the
 *       compressed bytes read so far (or {@link #EXPANSION_FLOOR_BYTES}, whichever is more), so a small body never
 *       costs a large buffer: deflate reaches about 1,000:1 on zeros, while the line protocol, OTLP JSON, protobuf
 *       and SQL that clients send compress 5–30:1. Past either bound: {@link BodyTooLargeException}.</li>
 *   <li>A compressed body that does not decode: {@link CorruptBodyException}.</li>
 * </ul>
 * Each port answers these in its own protocol (ingest: 413/415/400 with a JSON error; the ClickHouse interface: its
 * exception format). The stream reads synchronously and decodes lazily: nothing is read until the caller reads.
 */
public final class BoundedBody {

    private static final int INFLATE_BUFFER_BYTES = 64 * 1024;
    /** Decoded bytes allowed per compressed byte read. */
    public static final int MAX_EXPANSION = 100;
    /** Decoded bytes always allowed, whatever the compressed size. */
    public static final long EXPANSION_FLOOR_BYTES = 1024 * 1024;

    private BoundedBody() {
    }

    /** True when this reader decodes {@code contentEncoding} itself (gzip, deflate), so callers see plain bytes. */
    public static boolean decodes(String contentEncoding) {
        return decoder(normalised(contentEncoding)) != null;
    }

    /**
     * The decoded body of {@code wire}, bounded as the class says; {@code limitName} names the limit in the message
     * of a {@link BodyTooLargeException} (the setting a client's operator would raise), {@code selfDecoded} is the
     * encoding the endpoint decodes itself, or null for none.
     */
    public static InputStream decoded(InputStream wire, String contentEncoding, long limitBytes, String limitName,
            String selfDecoded) throws UnsupportedEncodingException {
        String encoding = normalised(contentEncoding);
        Counted counted = new Counted(wire, limitBytes, limitName, "request body", null);
        if (encoding.isEmpty() || encoding.equals("identity") || encoding.equals(normalised(selfDecoded))) {
            return counted;
        }
        Decoder decoder = decoder(encoding);
        if (decoder == null) {
            throw new UnsupportedEncodingException(contentEncoding);
        }
        return new Counted(new LazyDecoder(encoding, counted, decoder), limitBytes, limitName,
                "decompressed request body", counted);
    }

    private static Decoder decoder(String encoding) {
        return switch (encoding) {
            case "gzip" -> in -> new GZIPInputStream(in, INFLATE_BUFFER_BYTES);
            case "deflate" -> in -> new InflaterInputStream(in, new Inflater(), INFLATE_BUFFER_BYTES);
            default -> null;
        };
    }

    /** Opens the decoding stream over the compressed one (a gzip header is read here). */
    @FunctionalInterface
    private interface Decoder {
        InputStream open(InputStream compressed) throws IOException;
    }

    private static String normalised(String contentEncoding) {
        return contentEncoding == null ? "" : contentEncoding.strip().toLowerCase(Locale.ROOT);
    }

    /** A stream read in blocks; a single byte is a block of one. */
    private abstract static class BlockStream extends InputStream {

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public abstract int read(byte[] b, int off, int len) throws IOException;
    }

    /**
     * Counts bytes as they are read and fails once past the limit; the decoded side also against
     * {@link #MAX_EXPANSION} times the compressed bytes {@code compressed} has read.
     */
    private static final class Counted extends BlockStream {

        private final InputStream in;
        private final long limitBytes;
        private final String limitName;
        private final String what;
        private final Counted compressed;
        private long readBytes;

        Counted(InputStream in, long limitBytes, String limitName, String what, Counted compressed) {
            this.in = in;
            this.limitBytes = limitBytes;
            this.limitName = limitName;
            this.what = what;
            this.compressed = compressed;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }

        private void count(int n) throws BodyTooLargeException {
            readBytes += n;
            if (readBytes > limitBytes) {
                throw new BodyTooLargeException(what, limitBytes, limitName, compressed != null);
            }
            if (compressed != null && readBytes > Math.max(EXPANSION_FLOOR_BYTES, MAX_EXPANSION * compressed.readBytes)) {
                throw BodyTooLargeException.expansion(readBytes, compressed.readBytes, MAX_EXPANSION, limitBytes);
            }
        }
    }

    /** Opens the decoder on first read (a gzip header is read then, not when the body is wrapped). */
    private static final class LazyDecoder extends BlockStream {

        private final String encoding;
        private final InputStream compressed;
        private final Decoder open;
        private InputStream decoder;

        LazyDecoder(String encoding, InputStream compressed, Decoder open) {
            this.encoding = encoding;
            this.compressed = compressed;
            this.open = open;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                if (decoder == null) {
                    decoder = open.open(compressed);
                }
                return decoder.read(b, off, len);
            } catch (ZipException | EOFException e) {
                throw new CorruptBodyException(encoding + " body is corrupt or truncated: " + e.getMessage(), e);
            }
        }

        @Override
        public void close() throws IOException {
            compressed.close();
        }
    }

    /** A Content-Encoding other than gzip, deflate, identity or the endpoint's own: ingest answers 415. */
    public static final class UnsupportedEncodingException extends IOException {
        UnsupportedEncodingException(String encoding) {
            super("Content-Encoding '" + encoding + "' is not supported; send gzip, deflate or identity");
        }
    }

    /** A compressed body that does not decode: ingest answers 400. */
    public static final class CorruptBodyException extends IOException {
        CorruptBodyException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
