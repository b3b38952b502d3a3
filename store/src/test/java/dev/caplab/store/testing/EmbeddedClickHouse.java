package dev.caplab.store.testing;

import dev.caplab.store.access.StoreDataSources;
import dev.caplab.store.engine.ChdbEngine;
import dev.caplab.store.engine.ChdbLibrary;
import dev.caplab.store.http.ClickHouseHttpServer;
import dev.caplab.store.http.HttpSettings;
import dev.caplab.store.schema.Migrations;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * One ClickHouse per test JVM for every module's ITs: the embedded engine behind its HTTP interface
 * (temp data dir), or the server named by {@code CLICKHOUSE_URL} (with {@code CLICKHOUSE_USER} /
 * {@code CLICKHOUSE_PASSWORD}) when that is set. Each caller gets fresh databases with migrations applied.
 */
public final class EmbeddedClickHouse {

    /** Environment variable naming an external server, e.g. {@code http://localhost:8123}. */
    public static final String URL_ENV = "CLICKHOUSE_URL";

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static EmbeddedClickHouse shared;
    private static EmbeddedClickHouse sharedEmbedded;

    private final String httpUrl;
    private final String user;
    private final String password;
    private final Optional<ChdbEngine> engine;
    private final Optional<ClickHouseHttpServer> server;

    private EmbeddedClickHouse(String httpUrl, String user, String password, Optional<ChdbEngine> engine,
                               Optional<ClickHouseHttpServer> server) {
        this.httpUrl = httpUrl;
        this.user = user;
        this.password = password;
        this.engine = engine;
        this.server = server;
    }

    /** The JVM's one instance: the server of {@code CLICKHOUSE_URL} if set, else {@link #sharedEmbedded()}. */
    public static synchronized EmbeddedClickHouse shared() {
        if (shared == null) {
            shared = external().orElseGet(EmbeddedClickHouse::sharedEmbedded);
        }
        return shared;
    }

    /** The JVM's one embedded engine + HTTP server, whatever the environment says; stopped at JVM exit. */
    public static synchronized EmbeddedClickHouse sharedEmbedded() {
        if (sharedEmbedded == null) {
            sharedEmbedded = startEmbedded();
        }
        return sharedEmbedded;
    }

    /** The server named by {@code CLICKHOUSE_URL}, if set. */
    public static Optional<EmbeddedClickHouse> external() {
        String url = System.getenv(URL_ENV);
        if (url == null || url.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(new EmbeddedClickHouse(url.replaceAll("/+$", ""),
                Optional.ofNullable(System.getenv("CLICKHOUSE_USER")).orElse("default"),
                Optional.ofNullable(System.getenv("CLICKHOUSE_PASSWORD")).orElse(""),
                Optional.empty(), Optional.empty()));
    }

    private static EmbeddedClickHouse startEmbedded() {
        Path dir;
        try {
            dir = Files.createTempDirectory("caplab-chdb-test-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp data dir for chDB", e);
        }
        ChdbEngine engine = ChdbEngine.open(ChdbLibrary.locate(), dir);
        ClickHouseHttpServer server = ClickHouseHttpServer.start(engine, HttpSettings.defaults().withPort(0));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            engine.close();
            deleteRecursively(dir);
        }, "embedded-clickhouse-shutdown"));
        // Tests act as caplab itself (DDL, inserts): they use the server's internal credential.
        return new EmbeddedClickHouse(server.httpUrl(), server.settings().internal().user(),
                server.settings().internal().password(), Optional.of(engine), Optional.of(server));
    }

    /** Whether this is the in-process engine (false: an external server from {@code CLICKHOUSE_URL}). */
    public boolean embedded() {
        return engine.isPresent();
    }

    /** The in-process engine, when embedded. */
    public Optional<ChdbEngine> engine() {
        return engine;
    }

    /** {@code http://host:port} of the ClickHouse HTTP interface. */
    public String httpUrl() {
        return httpUrl;
    }

    /** User for JDBC and HTTP. */
    public String user() {
        return user;
    }

    /** Password for JDBC and HTTP. */
    public String password() {
        return password;
    }

    /** A ClickHouse JDBC URL whose default database is {@code database}. */
    public String jdbcUrl(String database) {
        return server.map(s -> s.jdbcUrl(database)).orElse("jdbc:clickhouse:" + httpUrl + "/" + database);
    }

    /** Creates a uniquely named database for {@code owner} (a test class name), applies migrations, pools it. */
    public TestDatabase freshDatabase(String owner) {
        String name = ("t" + DATABASES.incrementAndGet() + "_" + ProcessHandle.current().pid() + "_"
                + owner.replaceAll("[^A-Za-z0-9]", "_")).toLowerCase(Locale.ROOT);
        name = name.length() > 60 ? name.substring(0, 60) : name;
        String url = jdbcUrl(name);
        var pool = StoreDataSources.create(jdbcUrl("default"), user, password);
        try {
            Migrations.apply(pool, name);
        } finally {
            pool.close();
        }
        return new TestDatabase(name, url, StoreDataSources.create(url, user, password));
    }

    /** Drops the database and closes its pool. */
    public void drop(TestDatabase database) {
        try (var pool = database.pool(); Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS `" + database.name() + "`");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot drop test database " + database.name(), e);
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not delete chDB test dir " + dir + ": " + e);
        }
    }
}
