package dev.caplab.ingest.http;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * The body stream every controller reads: gunzipped when {@code Content-Encoding: gzip}, and never more than the
 * configured limit, counted on the wire and again after decompression (a gzip bomb stops at the limit, not at
 * out-of-memory). A gzip body may also expand to at most {@link #MAX_EXPANSION} times the compressed bytes read so far
 * (or {@link #EXPANSION_FLOOR_BYTES}, whichever is more), so a small body never costs a large buffer: deflate reaches
 * about 1,000:1 on zeros, while the line protocol, OTLP JSON and protobuf that tools send compress 5–30:1. Built once per
 * request by {@link IngestRequestFilter}.
 */
final class RequestBodies {

    private static final int GZIP_BUFFER_BYTES = 64 * 1024;
    /** Decompressed bytes allowed per compressed byte read. */
    static final int MAX_EXPANSION = 100;
    /** Decompressed bytes always allowed, whatever the compressed size. */
    static final long EXPANSION_FLOOR_BYTES = 1024 * 1024;

    private RequestBodies() {
    }

    /** True when the encoding is one the door decodes itself (gzip), so controllers see plain bytes. */
    static boolean decodes(String contentEncoding) {
        return "gzip".equalsIgnoreCase(strip(contentEncoding));
    }

    /**
     * The decoded, bounded body; throws {@link UnsupportedEncodingException} for encodings other than gzip/identity
     * and {@code selfDecoded}, the encoding the endpoint decodes itself (remote write's snappy block: it is not a
     * stream, so only the endpoint can decode it; the door still bounds the wire bytes), or null for none.
     */
    static ServletInputStream decoded(InputStream wire, String contentEncoding, long limitBytes, String selfDecoded)
            throws IOException {
        Bounded bounded = new Bounded(wire, limitBytes, "request body");
        String encoding = strip(contentEncoding);
        if (encoding.isEmpty() || encoding.equalsIgnoreCase("identity") || encoding.equalsIgnoreCase(selfDecoded)) {
            return bounded;
        }
        if (!decodes(encoding)) {
            throw new UnsupportedEncodingException(contentEncoding);
        }
        return new Expanded(new LazyGunzip(bounded), bounded, limitBytes);
    }

    private static String strip(String contentEncoding) {
        return contentEncoding == null ? "" : contentEncoding.strip();
    }

    /** Counts bytes as they are read and fails once past the limit; a blocking servlet stream (reads are synchronous). */
    private static class Bounded extends ServletInputStream {

        private final InputStream in;
        private final long limitBytes;
        private final String what;
        private long readBytes;
        private boolean finished;

        Bounded(InputStream in, long limitBytes, String what) {
            this.in = in;
            this.limitBytes = limitBytes;
            this.what = what;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                count(n);
            }
            finished = n < 0;
            return n;
        }

        @Override
        public boolean isFinished() {
            return finished;
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
            throw new UnsupportedOperationException("caplab reads request bodies synchronously");
        }

        @Override
        public void close() throws IOException {
            in.close();
        }

        private void count(int n) throws BodyTooLargeException {
            readBytes += n;
            if (readBytes > limitBytes) {
                throw new BodyTooLargeException(what, limitBytes);
            }
            checkExpansion(readBytes);
        }

        /** A further bound on the bytes read so far; none on the wire side. */
        void checkExpansion(long readBytes) throws BodyTooLargeException {
        }

        long limitBytes() {
            return limitBytes;
        }
    }

    /** The decompressed side: bounded by the limit and by {@link #MAX_EXPANSION} times the compressed bytes read. */
    private static final class Expanded extends Bounded {

        private final Bounded compressed;

        Expanded(InputStream gunzipped, Bounded compressed, long limitBytes) {
            super(gunzipped, limitBytes, "decompressed request body");
            this.compressed = compressed;
        }

        @Override
        void checkExpansion(long decompressedBytes) throws BodyTooLargeException {
            long compressedBytes = compressed.readBytes;
            if (decompressedBytes > Math.max(EXPANSION_FLOOR_BYTES, MAX_EXPANSION * compressedBytes)) {
                throw BodyTooLargeException.expansion(decompressedBytes, compressedBytes, MAX_EXPANSION, limitBytes());
            }
        }
    }

    /** Reads the gzip header on first use (not when the request is wrapped) and reports corruption as 400. */
    private static final class LazyGunzip extends InputStream {

        private final InputStream compressed;
        private GZIPInputStream gunzip;

        LazyGunzip(InputStream compressed) {
            this.compressed = compressed;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                if (gunzip == null) {
                    gunzip = new GZIPInputStream(compressed, GZIP_BUFFER_BYTES);
                }
                return gunzip.read(b, off, len);
            } catch (ZipException | EOFException e) {
                throw new CorruptBodyException("gzip body is corrupt or truncated: " + e.getMessage(), e);
            }
        }

        @Override
        public void close() throws IOException {
            compressed.close();
        }
    }

    /** Content-Encoding other than gzip or identity: answered with 415. */
    static final class UnsupportedEncodingException extends IOException {
        UnsupportedEncodingException(String encoding) {
            super("Content-Encoding '" + encoding + "' is not supported; send gzip or identity");
        }
    }

    /** A gzip body that does not decompress: answered with 400. */
    static final class CorruptBodyException extends IOException {
        CorruptBodyException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
