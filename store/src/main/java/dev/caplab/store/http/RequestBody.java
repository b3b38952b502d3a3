package dev.caplab.store.http;

import com.sun.net.httpserver.HttpExchange;
import dev.caplab.access.BodyTooLargeException;
import dev.caplab.access.BoundedBody;
import dev.caplab.store.engine.ClickHouseException;

import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a request body through {@link BoundedBody} (gzip, deflate or none; at most the caller's limit sent and
 * decoded, and no more than {@link BoundedBody#MAX_EXPANSION} times the compressed bytes), answering its refusals in
 * ClickHouse's form: too large 413, an unknown or corrupt encoding BAD_ARGUMENTS.
 */
final class RequestBody {

    private static final String LIMIT_NAME = "the limit for this caller on the embedded ClickHouse interface";

    private RequestBody() {
    }

    /** The decoded body, at most {@code maxBytes} long both as sent and as decoded. */
    static byte[] read(HttpExchange exchange, long maxBytes) throws IOException {
        String declared = exchange.getRequestHeaders().getFirst("Content-Length");
        if (declared != null && parseLength(declared) > maxBytes) {
            throw tooLarge("sent", maxBytes);
        }
        String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
        try (InputStream in = BoundedBody.decoded(exchange.getRequestBody(), encoding, maxBytes, LIMIT_NAME, null)) {
            return in.readAllBytes();
        } catch (BodyTooLargeException e) {
            throw e.decoded() ? refused413("request body too large: " + e.getMessage()) : tooLarge("sent", maxBytes);
        } catch (BoundedBody.UnsupportedEncodingException | BoundedBody.CorruptBodyException e) {
            throw new ClickHouseException(ClickHouseRequest.BAD_ARGUMENTS, "Code: 36. DB::Exception: "
                    + e.getMessage() + ". (BAD_ARGUMENTS)");
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
        return refused413("request body too large: more than " + maxBytes + " bytes " + side + " (" + LIMIT_NAME + ")");
    }

    private static RequestRefusedException refused413(String why) {
        return new RequestRefusedException(413, RequestRefusedException.TOO_LARGE, "Code: 1001. DB::Exception: " + why
                + ". (REQUEST_TOO_LARGE)");
    }
}
