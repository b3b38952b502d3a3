package dev.caplab.store.http;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.caplab.store.engine.ClickHouseException;
import dev.caplab.store.engine.EngineException;
import dev.caplab.store.engine.QueryResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;

/** Answers ClickHouse HTTP requests (query, ping) from the embedded engine, with ClickHouse's error conventions. */
final class QueryHandler implements HttpHandler {

    private static final Logger LOG = LoggerFactory.getLogger(QueryHandler.class);
    private static final int AUTHENTICATION_FAILED = 516;
    private static final byte[] OK = "Ok.\n".getBytes(StandardCharsets.US_ASCII);

    private final EngineSessions sessions;
    private final HttpSettings settings;
    private final String timezone;
    private final String version;

    QueryHandler(EngineSessions sessions, HttpSettings settings, String timezone, String version) {
        this.sessions = sessions;
        this.settings = settings;
        this.timezone = timezone;
        this.version = version;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if ("/ping".equals(path) || "/replicas_status".equals(path)) {
                send(exchange, 200, OK, "text/plain; charset=UTF-8");
                return;
            }
            if (!"/".equals(path) && !"/query".equals(path)) {
                send(exchange, 404, ("There is no handle " + path + "\n").getBytes(StandardCharsets.UTF_8),
                        "text/plain; charset=UTF-8");
                return;
            }
            serve(exchange);
        } catch (IOException e) {
            // The client went away mid-request; nothing to answer, but never silently.
            LOG.debug("HTTP exchange failed: {}", e.toString());
            throw e;
        }
    }

    private void serve(HttpExchange exchange) throws IOException {
        String queryId = UUID.randomUUID().toString();
        try {
            byte[] body = readBody(exchange);
            String rawQuery = exchange.getRequestURI().getRawQuery();
            if (body.length == 0 && (rawQuery == null || !rawQuery.contains("query="))) {
                send(exchange, 200, OK, "text/plain; charset=UTF-8");
                return;
            }
            ClickHouseRequest request = ClickHouseRequest.parse(rawQuery, lowerCaseHeaders(exchange), body);
            queryId = request.queryId().orElse(queryId);
            authenticate(request);
            if (LOG.isTraceEnabled()) {
                LOG.trace("query_id={} db={} format={} settings={} params={} statement={}", queryId,
                        request.database(), request.format(), request.settings(), request.params().keySet(),
                        new String(request.statement(), 0, Math.min(300, request.statement().length),
                                StandardCharsets.UTF_8));
            }
            QueryResult result = sessions.execute(request);
            Headers h = exchange.getResponseHeaders();
            h.set("X-ClickHouse-Query-Id", queryId);
            h.set("X-ClickHouse-Format", request.format());
            h.set("X-ClickHouse-Summary", summary(result));
            commonHeaders(h);
            send(exchange, 200, result.data(), contentType(request.format()));
        } catch (ClickHouseException e) {
            sendError(exchange, queryId, e.code(), e.getMessage());
        } catch (EngineException e) {
            LOG.error("embedded engine failure on query_id={}", queryId, e);
            sendError(exchange, queryId, 1002, "Code: 1002. DB::Exception: embedded engine failure: "
                    + e.getMessage() + ". (UNKNOWN_EXCEPTION)");
        } catch (RuntimeException e) {
            // A bug of ours must still answer in ClickHouse's terms, not drop the connection without a word.
            LOG.error("HTTP interface failure on query_id={}", queryId, e);
            sendError(exchange, queryId, 1001, "Code: 1001. DB::Exception: embedded HTTP interface failure: " + e
                    + ". (STD_EXCEPTION)");
        }
    }

    private void authenticate(ClickHouseRequest request) {
        if (settings.user().isEmpty()) {
            return;
        }
        boolean userOk = request.user().map(u -> constantTimeEquals(u, settings.user().get())).orElse(false);
        boolean passwordOk = constantTimeEquals(request.password(), settings.password().orElse(""));
        if (!userOk || !passwordOk) {
            throw new ClickHouseException(AUTHENTICATION_FAILED, "Code: 516. DB::Exception: "
                    + request.user().orElse("default") + ": Authentication failed: password is incorrect, or there"
                    + " is no user with such name. (AUTHENTICATION_FAILED)");
        }
    }

    private static boolean constantTimeEquals(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private void sendError(HttpExchange exchange, String queryId, int code, String message) throws IOException {
        Headers h = exchange.getResponseHeaders();
        h.set("X-ClickHouse-Exception-Code", Integer.toString(code));
        h.set("X-ClickHouse-Query-Id", queryId);
        commonHeaders(h);
        String text = message.startsWith("Code:") ? message : "Code: " + code + ". DB::Exception: " + message;
        send(exchange, statusFor(code), (text + " (version " + version + ")\n").getBytes(StandardCharsets.UTF_8),
                "text/plain; charset=UTF-8");
    }

    private void commonHeaders(Headers h) {
        h.set("X-ClickHouse-Timezone", timezone);
        h.set("X-ClickHouse-Server-Display-Name", "caplab-embedded");
    }

    /** ClickHouse's own mapping of error codes to HTTP status, for the codes clients act on. */
    static int statusFor(int code) {
        return switch (code) {
            case 62, 36, 27, 115, 73, 26, 6, 38, 41, 53, 72, 117 -> 400;
            case AUTHENTICATION_FAILED, 164, 497 -> 403;
            case 60, 81 -> 404;
            default -> 500;
        };
    }

    private static String summary(QueryResult r) {
        return "{\"read_rows\":\"" + r.rowsRead() + "\",\"read_bytes\":\"" + r.bytesRead()
                + "\",\"written_rows\":\"" + r.rowsWritten() + "\",\"written_bytes\":\"" + r.bytesWritten()
                + "\",\"total_rows_to_read\":\"0\",\"result_rows\":\"" + r.rowsRead()
                + "\",\"result_bytes\":\"" + r.data().length
                + "\",\"elapsed_ns\":\"" + (long) (r.elapsedSeconds() * 1e9) + "\"}";
    }

    private static String contentType(String format) {
        String f = format.toLowerCase(Locale.ROOT);
        if (f.startsWith("json")) {
            return "application/json; charset=UTF-8";
        }
        if (f.startsWith("tabseparated") || f.startsWith("tsv")) {
            return "text/tab-separated-values; charset=UTF-8";
        }
        if (f.startsWith("csv")) {
            return "text/csv; charset=UTF-8";
        }
        return f.contains("binary") || f.equals("native") || f.startsWith("parquet") || f.startsWith("arrow")
                ? "application/octet-stream" : "text/plain; charset=UTF-8";
    }

    private static Map<String, String> lowerCaseHeaders(HttpExchange exchange) {
        Map<String, String> out = new HashMap<>();
        exchange.getRequestHeaders().forEach((k, v) -> {
            if (!v.isEmpty()) {
                out.put(k.toLowerCase(Locale.ROOT), v.getFirst());
            }
        });
        return out;
    }

    private static byte[] readBody(HttpExchange exchange) throws IOException {
        String encoding = Optional.ofNullable(exchange.getRequestHeaders().getFirst("Content-Encoding"))
                .map(s -> s.strip().toLowerCase(Locale.ROOT)).orElse("");
        InputStream raw = exchange.getRequestBody();
        try (InputStream in = switch (encoding) {
            case "", "identity" -> raw;
            case "gzip" -> new GZIPInputStream(raw, 64 * 1024);
            case "deflate" -> new InflaterInputStream(raw);
            default -> throw new ClickHouseException(ClickHouseRequest.BAD_ARGUMENTS, "Code: 36. DB::Exception:"
                    + " unsupported Content-Encoding " + encoding + " (use gzip, deflate or none). (BAD_ARGUMENTS)");
        }) {
            return in.readAllBytes();
        }
    }

    private static void send(HttpExchange exchange, int status, byte[] body, String contentType) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        // -1 means "no body"; 0 would mean chunked.
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }
}
