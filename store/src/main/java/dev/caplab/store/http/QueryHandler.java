package dev.caplab.store.http;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.caplab.store.engine.ClickHouseException;
import dev.caplab.store.http.Authenticator.Principal;
import dev.caplab.store.engine.EngineException;
import dev.caplab.store.engine.QueryResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Answers ClickHouse HTTP requests (query, ping) from the embedded engine, with ClickHouse's error conventions.
 *
 * <p>Runs on the HTTP server's dispatch threads only long enough to decide who is asking (headers and URL, no
 * body), then hands the request to caplab's own workers or to the readers' queue: a flood of readers waiting for
 * their turn never occupies a thread caplab's sink needs.
 */
final class QueryHandler implements HttpHandler {

    private static final Logger LOG = LoggerFactory.getLogger(QueryHandler.class);
    private static final byte[] OK = "Ok.\n".getBytes(StandardCharsets.US_ASCII);

    private final EngineSessions sessions;
    private final HttpSettings settings;
    private final Authenticator authenticator;
    private final Executor internalWorkers;
    private final Executor readerWorkers;
    private final Semaphore readerTurn = new Semaphore(1, true);
    private final String timezone;
    private final String version;
    private volatile boolean openToReaders;

    QueryHandler(EngineSessions sessions, HttpSettings settings, Executor internalWorkers, Executor readerWorkers,
                 String timezone, String version) {
        this.sessions = sessions;
        this.settings = settings;
        this.authenticator = new Authenticator(settings);
        this.internalWorkers = internalWorkers;
        this.readerWorkers = readerWorkers;
        this.timezone = timezone;
        this.version = version;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if ("/ping".equals(path) || "/replicas_status".equals(path)) {
            respond(exchange, () -> {
                if (openToReaders) {
                    send(exchange, 200, OK, "text/plain; charset=UTF-8");
                } else {
                    sendFailure(exchange, UUID.randomUUID().toString(), starting());
                }
            });
            return;
        }
        if (!"/".equals(path) && !"/query".equals(path)) {
            respond(exchange, () -> send(exchange, 404, ("There is no handle " + path + "\n")
                    .getBytes(StandardCharsets.UTF_8), "text/plain; charset=UTF-8"));
            return;
        }
        String queryId = UUID.randomUUID().toString();
        Map<String, String> headers = lowerCaseHeaders(exchange);
        Principal principal;
        try {
            principal = authenticator.authenticate(ClickHouseRequest.Credentials.of(
                    ClickHouseRequest.decodeQueryString(exchange.getRequestURI().getRawQuery()), headers), headers);
        } catch (RuntimeException e) {
            respond(exchange, () -> sendFailure(exchange, queryId, e));
            return;
        }
        if (principal == Principal.INTERNAL) {
            internalWorkers.execute(() -> respond(exchange, () -> serveInternal(exchange, headers, queryId)));
            return;
        }
        if (!openToReaders) {
            respond(exchange, () -> sendFailure(exchange, queryId, starting()));
            return;
        }
        long queuedAtNanos = System.nanoTime();
        try {
            readerWorkers.execute(() -> respond(exchange, () -> serveReader(exchange, headers, queryId,
                    queuedAtNanos)));
        } catch (RejectedExecutionException e) {
            respond(exchange, () -> sendFailure(exchange, queryId, busy("readers' queue is full")));
        }
    }

    private void serveReader(HttpExchange exchange, Map<String, String> headers, String queryId, long queuedAtNanos)
            throws IOException {
        ReaderLimits limits = settings.readerLimits();
        // the body is read before the turn is taken: a client sending it slowly holds a worker, never the turn
        byte[] body;
        try {
            body = RequestBody.read(exchange, limits.maxStatementBytes());
        } catch (RuntimeException e) {
            sendFailure(exchange, queryId, e);
            return;
        }
        long waitNanos = TimeUnit.MILLISECONDS.toNanos(limits.queueWaitMillis()) - (System.nanoTime() - queuedAtNanos);
        try {
            if (!readerTurn.tryAcquire(Math.max(0, waitNanos), TimeUnit.NANOSECONDS)) {
                sendFailure(exchange, queryId, busy("no turn within " + limits.queueWaitMillis() + " ms"));
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            sendFailure(exchange, queryId, busy("the server is stopping"));
            return;
        }
        try {
            serve(exchange, headers, queryId, Principal.READER, body);
        } finally {
            readerTurn.release();
        }
    }

    void openToReaders() {
        openToReaders = true;
    }

    // ClickHouse itself does not listen before its tables are loaded; here caplab creates them through this port.
    private static RequestRefusedException starting() {
        return new RequestRefusedException(503, RequestRefusedException.NOT_READY, "Code: 1002. DB::Exception:"
                + " caplab is still creating its database (schema migrations); readers are served once they are"
                + " applied. Try again in a few seconds. (NOT_READY)", 2);
    }

    private static RequestRefusedException busy(String why) {
        return new RequestRefusedException(503, RequestRefusedException.TOO_MANY_QUERIES, "Code: 202."
                + " DB::Exception: Too many simultaneous queries from readers (" + why + "); caplab's own work comes"
                + " first. Try again later. (TOO_MANY_SIMULTANEOUS_QUERIES)", 1);
    }

    private void serveInternal(HttpExchange exchange, Map<String, String> headers, String queryId) throws IOException {
        byte[] body;
        try {
            body = RequestBody.read(exchange, settings.maxBodyBytes());
        } catch (RuntimeException e) {
            sendFailure(exchange, queryId, e);
            return;
        }
        serve(exchange, headers, queryId, Principal.INTERNAL, body);
    }

    private void serve(HttpExchange exchange, Map<String, String> headers, String queryId, Principal principal,
                       byte[] body) throws IOException {
        String id = queryId;
        try {
            String rawQuery = exchange.getRequestURI().getRawQuery();
            if (body.length == 0 && (rawQuery == null || !rawQuery.contains("query="))) {
                send(exchange, 200, OK, "text/plain; charset=UTF-8");
                return;
            }
            ClickHouseRequest request = ClickHouseRequest.parse(rawQuery, headers, body);
            id = request.queryId().orElse(queryId);
            if (LOG.isTraceEnabled()) {
                LOG.trace("query_id={} principal={} db={} format={} settings={} params={} statement={}", id,
                        principal, request.database(), request.format(), request.settings(),
                        request.params().keySet(), new String(request.statement(), 0,
                                Math.min(300, request.statement().length), StandardCharsets.UTF_8));
            }
            long startNanos = System.nanoTime();
            QueryResult result = principal == Principal.INTERNAL ? sessions.execute(request) : executeReader(request);
            if (LOG.isDebugEnabled()) {
                LOG.debug("query_id={} principal={} took {} ms (engine {} ms), read_rows={} read_bytes={}"
                        + " result_bytes={} statement={}", id, principal,
                        String.format(Locale.ROOT, "%.1f", (System.nanoTime() - startNanos) / 1e6),
                        String.format(Locale.ROOT, "%.1f", result.elapsedSeconds() * 1e3), result.rowsRead(),
                        result.bytesRead(), result.data().length, new String(request.statement(), 0,
                                Math.min(1000, request.statement().length), StandardCharsets.UTF_8));
            }
            Headers h = exchange.getResponseHeaders();
            h.set("X-ClickHouse-Query-Id", id);
            h.set("X-ClickHouse-Format", request.format());
            h.set("X-ClickHouse-Summary", summary(result));
            commonHeaders(h);
            send(exchange, 200, result.data(), contentType(request.format()));
        } catch (RuntimeException e) {
            sendFailure(exchange, id, e);
        }
    }

    private QueryResult executeReader(ClickHouseRequest request) {
        ReaderLimits limits = settings.readerLimits();
        String database = request.database().orElse(limits.defaultDatabase());
        if (!limits.databases().contains(database)) {
            throw new ClickHouseException(RequestRefusedException.ACCESS_DENIED, "Code: 497. DB::Exception: "
                    + HttpSettings.READER_USER + ": Not enough privileges: database " + database + " is not readable"
                    + " here. (ACCESS_DENIED)");
        }
        return sessions.executeReader(request, ReaderSettings.effective(request.settings(), limits), database,
                limits.maxResultBytes(), limits.databases());
    }

    /** Answers a failure in ClickHouse's terms: a bug of ours too, rather than dropping the connection. */
    private void sendFailure(HttpExchange exchange, String queryId, RuntimeException failure) throws IOException {
        switch (failure) {
            case RequestRefusedException e -> {
                if (e.httpStatus() == 401) {
                    exchange.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"ClickHouse\"");
                }
                if (e.retryAfterSeconds() > 0) {
                    exchange.getResponseHeaders().set("Retry-After", Integer.toString(e.retryAfterSeconds()));
                }
                sendError(exchange, queryId, e.httpStatus(), e.code(), e.getMessage());
            }
            case ClickHouseException e -> sendError(exchange, queryId, statusFor(e.code()), e.code(), e.getMessage());
            case EngineException e -> {
                LOG.error("embedded engine failure on query_id={}", queryId, e);
                sendError(exchange, queryId, 500, 1002, "Code: 1002. DB::Exception: embedded engine failure: "
                        + e.getMessage() + ". (UNKNOWN_EXCEPTION)");
            }
            default -> {
                LOG.error("HTTP interface failure on query_id={}", queryId, failure);
                sendError(exchange, queryId, 500, 1001, "Code: 1001. DB::Exception: embedded HTTP interface failure: "
                        + failure + ". (STD_EXCEPTION)");
            }
        }
    }

    /** Runs {@code answer} and closes the exchange, on whichever thread serves it. */
    private static void respond(HttpExchange exchange, Answer answer) {
        try (exchange) {
            answer.run();
        } catch (IOException e) {
            // The client went away mid-request; nothing to answer, but never silently.
            LOG.debug("HTTP exchange failed: {}", e.toString());
        } catch (RuntimeException e) {
            LOG.error("HTTP exchange failed unanswered", e);
        }
    }

    /** Writes a response; may fail with the client gone. */
    @FunctionalInterface
    private interface Answer {
        void run() throws IOException;
    }

    private void sendError(HttpExchange exchange, String queryId, int status, int code, String message)
            throws IOException {
        Headers h = exchange.getResponseHeaders();
        h.set("X-ClickHouse-Exception-Code", Integer.toString(code));
        h.set("X-ClickHouse-Query-Id", queryId);
        commonHeaders(h);
        String text = message.startsWith("Code:") ? message : "Code: " + code + ". DB::Exception: " + message;
        send(exchange, status, (text + " (version " + version + ")\n").getBytes(StandardCharsets.UTF_8),
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
            case RequestRefusedException.AUTHENTICATION_FAILED -> 401;
            case 164, 497 -> 403;
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
