package dev.caplab.store.http;

import com.sun.net.httpserver.HttpServer;
import dev.caplab.store.engine.ChdbEngine;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Serves a {@link ChdbEngine} with ClickHouse's HTTP protocol so unmodified ClickHouse clients (JDBC, curl,
 * notebooks) reach the embedded engine exactly as they would a server.
 */
public final class ClickHouseHttpServer implements AutoCloseable {

    private final HttpServer server;
    private final ThreadPoolExecutor executor;
    private final HttpSettings settings;

    private ClickHouseHttpServer(HttpServer server, ThreadPoolExecutor executor, HttpSettings settings) {
        this.server = server;
        this.executor = executor;
        this.settings = settings;
    }

    /** Binds {@code settings.host():settings.port()} and starts serving; fails naming the port if it is taken. */
    public static ClickHouseHttpServer start(ChdbEngine engine, HttpSettings settings) {
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
        AtomicInteger n = new AtomicInteger();
        // Bounded on both sides; when the queue is full the acceptor thread runs the request itself,
        // which stops it accepting more: backpressure instead of unbounded memory.
        ThreadPoolExecutor executor = new ThreadPoolExecutor(settings.workerThreads(), settings.workerThreads(),
                30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(settings.queueCapacity()), r -> {
                    Thread t = new Thread(r, "clickhouse-http-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.CallerRunsPolicy());
        EngineSessions sessions = new EngineSessions(engine);
        String timezone = engine.query("SELECT timezone()", "TabSeparated").text().strip();
        String version = engine.query("SELECT version()", "TabSeparated").text().strip();
        server.createContext("/", new QueryHandler(sessions, settings, timezone, version));
        server.setExecutor(executor);
        server.start();
        return new ClickHouseHttpServer(server, executor, settings);
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
        executor.shutdown();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
