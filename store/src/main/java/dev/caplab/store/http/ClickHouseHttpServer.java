package dev.caplab.store.http;

import com.sun.net.httpserver.HttpServer;
import dev.caplab.store.engine.ChdbEngine;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Serves a {@link ChdbEngine} with ClickHouse's HTTP protocol so unmodified ClickHouse clients (JDBC, curl,
 * notebooks) reach the embedded engine exactly as they would a server: caplab itself with its internal credential,
 * everyone else as a limited reader (see {@link HttpSettings}).
 */
public final class ClickHouseHttpServer implements AutoCloseable {

    /**
     * Seconds a client may take to send one whole request (line, headers, body) before the connection is closed.
     * The JDK's server reads them on the dispatch thread with no deadline unless told by this JVM-wide property,
     * read when the first JDK HTTP server of the JVM starts (in caplab, this one); a value set before is kept.
     */
    static final long MAX_REQUEST_SECONDS = 10;
    private static final String MAX_REQUEST_TIME_PROPERTY = "sun.net.httpserver.maxReqTime";

    /**
     * TCP_NODELAY on every accepted connection (the JDK's server leaves Nagle's algorithm on unless told by this
     * JVM-wide property, read with the other one). The server writes a response's headers and its body in separate
     * writes; with Nagle on, the body waits for the client's ACK of the headers, and the client delays that ACK
     * (40 ms on Linux): every statement caplab sends over JDBC, each read of a page and each insert of the sink,
     * paid 40 ms on top of its engine time.
     */
    private static final String NO_DELAY_PROPERTY = "sun.net.httpserver.nodelay";

    static {
        if (System.getProperty(MAX_REQUEST_TIME_PROPERTY) == null) {
            System.setProperty(MAX_REQUEST_TIME_PROPERTY, Long.toString(MAX_REQUEST_SECONDS));
        }
        if (System.getProperty(NO_DELAY_PROPERTY) == null) {
            System.setProperty(NO_DELAY_PROPERTY, "true");
        }
    }

    private final HttpServer server;
    private final List<ExecutorService> executors;
    private final HttpSettings settings;
    private final QueryHandler handler;

    private ClickHouseHttpServer(HttpServer server, List<ExecutorService> executors, HttpSettings settings,
                                 QueryHandler handler) {
        this.server = server;
        this.executors = executors;
        this.settings = settings;
        this.handler = handler;
    }

    /** Binds {@code settings.host():settings.port()} and starts serving; fails naming the port if it is taken. */
    public static ClickHouseHttpServer start(ChdbEngine engine, HttpSettings settings) {
        ClickHouseHttpServer server = startClosedToReaders(engine, settings);
        server.openToReaders();
        return server;
    }

    /**
     * Like {@link #start}, but serves caplab's own credential only until {@link #openToReaders()}: readers' queries
     * and {@code /ping} are answered 503 meanwhile. For a server whose schema caplab creates through it, so that no
     * reader sees a missing database and no health check calls the server up before its tables exist.
     */
    public static ClickHouseHttpServer startClosedToReaders(ChdbEngine engine, HttpSettings settings) {
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(settings, "settings");
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(settings.host(), settings.port()), 64);
        } catch (BindException e) {
            throw new ServerStartException("cannot serve embedded ClickHouse on " + settings.host() + ":"
                    + settings.port() + ": port " + settings.port() + " is already in use (" + e.getMessage()
                    + "); stop the other server or choose another port (0 = any free port)", e);
        } catch (IOException e) {
            throw new ServerStartException("cannot bind " + settings.host() + ":" + settings.port(), e);
        }
        // The dispatch threads read each request's line and headers, then authenticate and route it (no body is
        // read before the caller is known). A client sending its headers slowly, or never finishing them, holds
        // its thread until MAX_REQUEST_SECONDS: virtual threads, so that any number of such clients wait on their
        // own and never in front of caplab's requests or other readers.
        ExecutorService dispatch = Executors.newThreadPerTaskExecutor(Thread.ofVirtual()
                .name("clickhouse-http-dispatch-", 1).factory());
        // caplab's own requests: bounded on both sides; when all are busy the dispatching thread serves one itself,
        // which slows that caller down (backpressure instead of unbounded memory).
        ThreadPoolExecutor internal = pool("clickhouse-http-", settings.workerThreads(),
                new ArrayBlockingQueue<>(settings.queueCapacity()), new ThreadPoolExecutor.CallerRunsPolicy());
        // Readers: one running, the others each waiting on a thread of their own until their turn or timeout;
        // beyond that, refused at once (503) rather than queued where caplab's requests would wait behind them.
        ThreadPoolExecutor readers = pool("clickhouse-http-reader-", 1 + settings.readerLimits().queuedQueries(),
                new SynchronousQueue<>(), new ThreadPoolExecutor.AbortPolicy());
        EngineSessions sessions = EngineSessions.of(engine);
        String timezone = engine.query("SELECT timezone()", "TabSeparated").text().strip();
        String version = engine.query("SELECT version()", "TabSeparated").text().strip();
        QueryHandler handler = new QueryHandler(sessions, settings, internal, readers, timezone, version);
        server.createContext("/", handler);
        server.setExecutor(dispatch);
        server.start();
        return new ClickHouseHttpServer(server, List.of(dispatch, internal, readers), settings, handler);
    }

    /** From now on readers and {@code /ping} are served (see {@link #startClosedToReaders}). */
    public void openToReaders() {
        handler.openToReaders();
    }

    private static ThreadPoolExecutor pool(String name, int threads, BlockingQueue<Runnable> queue,
                                           RejectedExecutionHandler whenFull) {
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, queue, r -> {
            Thread t = new Thread(r, name + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        }, whenFull);
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** What this server was started with, including caplab's own credential (for in-process clients). */
    public HttpSettings settings() {
        return settings;
    }

    /** The bound port (the real one when 0 was asked for). */
    public int port() {
        return server.getAddress().getPort();
    }

    /** {@code http://host:port} of this server, for plain HTTP clients. */
    public String httpUrl() {
        return "http://" + settings.host() + ":" + port();
    }

    /** A ClickHouse JDBC URL for {@code database}; responses are uncompressed, so {@code compress=0}. */
    public String jdbcUrl(String database) {
        return "jdbc:clickhouse:" + httpUrl() + "/" + URLEncoder.encode(database, StandardCharsets.UTF_8)
                + "?compress=0";
    }

    /** Stops accepting, lets running requests finish briefly, and stops the workers; the engine stays open. */
    @Override
    public void close() {
        server.stop(1);
        executors.forEach(ExecutorService::shutdown);
        try {
            for (ExecutorService executor : executors) {
                if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                    executor.shutdownNow();
                }
            }
        } catch (InterruptedException e) {
            executors.forEach(ExecutorService::shutdownNow);
            Thread.currentThread().interrupt();
        }
    }
}
