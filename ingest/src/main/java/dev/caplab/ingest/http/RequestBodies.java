package dev.caplab.ingest.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/** Reads request bodies whole, gunzipping when asked, never holding more than the configured limit. */
final class RequestBodies {

    private RequestBodies() {
    }

    /** The body, decompressed when the content encoding is gzip; the limit applies after decompression too. */
    static byte[] read(InputStream body, String contentEncoding, long limitBytes) throws IOException {
        if (contentEncoding == null || contentEncoding.isBlank() || contentEncoding.equalsIgnoreCase("identity")) {
            return readBounded(body, limitBytes, "request body");
        }
        if (!contentEncoding.equalsIgnoreCase("gzip")) {
            throw new UnsupportedEncodingException(contentEncoding);
        }
        try (GZIPInputStream gunzip = new GZIPInputStream(body, 64 * 1024)) {
            return readBounded(gunzip, limitBytes, "decompressed request body");
        } catch (ZipException | java.io.EOFException e) {
            throw new CorruptBodyException("gzip body is corrupt or truncated: " + e.getMessage(), e);
        }
    }

    private static byte[] readBounded(InputStream in, long limitBytes, String what) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 * 1024);
        byte[] chunk = new byte[64 * 1024];
        long total = 0;
        for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
            total += n;
            if (total > limitBytes) {
                throw new BodyTooLargeException(what, limitBytes);
            }
            out.write(chunk, 0, n);
        }
        return out.toByteArray();
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
