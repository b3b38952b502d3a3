package dev.caplab.store.http;

import com.sun.net.httpserver.HttpExchange;
import dev.caplab.store.engine.ClickHouseException;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;

/**
 * Reads a request body, inflating gzip or deflate, never past a byte limit on either side: a 6 MB gzip bomb
 * would otherwise inflate until the JVM runs out of memory. Over the limit the request is answered 413.
 */
final class RequestBody {

    private RequestBody() {
    }

    /** The (inflated) body, at most {@code maxBytes} long both as sent and as inflated. */
    static byte[] read(HttpExchange exchange, long maxBytes) throws IOException {
        String declared = exchange.getRequestHeaders().getFirst("Content-Length");
        if (declared != null && parseLength(declared) > maxBytes) {
            throw tooLarge("sent", maxBytes);
        }
        String encoding = Optional.ofNullable(exchange.getRequestHeaders().getFirst("Content-Encoding"))
                .map(s -> s.strip().toLowerCase(Locale.ROOT)).orElse("");
        InputStream raw = new Bounded(exchange.getRequestBody(), maxBytes, "sent");
        try (InputStream in = new Bounded(switch (encoding) {
            case "", "identity" -> raw;
            case "gzip" -> new GZIPInputStream(raw, 64 * 1024);
            case "deflate" -> new InflaterInputStream(raw);
            default -> throw new ClickHouseException(ClickHouseRequest.BAD_ARGUMENTS, "Code: 36. DB::Exception:"
                    + " unsupported Content-Encoding " + encoding + " (use gzip, deflate or none). (BAD_ARGUMENTS)");
        }, maxBytes, "inflated")) {
            return in.readAllBytes();
        }
    }

    private static long parseLength(String value) {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return -1; // the HTTP server itself rejects a malformed length
        }
    }

    private static RequestRefusedException tooLarge(String side, long maxBytes) {
        return new RequestRefusedException(413, RequestRefusedException.TOO_LARGE, "Code: 1001. DB::Exception:"
                + " request body too large: more than " + maxBytes + " bytes " + side + " (the limit for this caller"
                + " on the embedded ClickHouse interface). (REQUEST_TOO_LARGE)");
    }

    /** Fails with 413 as soon as more than {@code maxBytes} pass through. */
    private static final class Bounded extends FilterInputStream {
        private final long maxBytes;
        private final String side;
        private long count;

        Bounded(InputStream in, long maxBytes, String side) {
            super(in);
            this.maxBytes = maxBytes;
            this.side = side;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                counted(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, (int) Math.min(length, maxBytes - count + 1));
            if (n > 0) {
                counted(n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = super.skip(Math.min(n, maxBytes - count + 1));
            counted(skipped);
            return skipped;
        }

        private void counted(long n) {
            count += n;
            if (count > maxBytes) {
                throw tooLarge(side, maxBytes);
            }
        }
    }
}
