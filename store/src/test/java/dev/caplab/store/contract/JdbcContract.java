package dev.caplab.store.contract;

import dev.caplab.store.testing.EmbeddedClickHouse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What caplab relies on from ClickHouse through the unmodified clickhouse-jdbc 0.10.0 driver; run against the
 * embedded engine's HTTP interface and, when {@code CLICKHOUSE_URL} is set, a real server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JdbcContract {

    /**
     * Driver options on top of the target's URL: the default path (a batch becomes one VALUES text statement)
     * and the RowBinary writer StoreDataSources turns on.
     */
    private static final String VALUES = "";
    private static final String ROW_BINARY = "beta.row_binary_for_simple_insert=true";

    private EmbeddedClickHouse target;
    private String database;

    /** The ClickHouse to test, or empty to skip every test (each reported as skipped). */
    abstract Optional<EmbeddedClickHouse> target();

    /** Why an empty {@link #target()} is skipped. */
    abstract String skipReason();

    @BeforeAll
    void createDatabase() throws SQLException {
        Optional<EmbeddedClickHouse> available = target();
        if (available.isEmpty()) {
            return;
        }
        target = available.get();
        String name = "contract_" + getClass().getSimpleName().toLowerCase() + "_" + ProcessHandle.current().pid();
        try (Connection c = connect("default", ""); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name);
            s.execute("CREATE DATABASE " + name);
        }
        database = name;
    }

    @BeforeEach
    void requireTarget() {
        assumeTrue(target != null, this::skipReason);
    }

    @AfterAll
    void dropDatabase() throws SQLException {
        if (database == null) {
            return; // the target was unavailable and the class skipped
        }
        try (Connection c = connect("default", ""); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database);
        }
    }

    private Connection connect(String db, String options) throws SQLException {
        String url = target.jdbcUrl(db);
        String full = options.isEmpty() ? url : url + (url.contains("?") ? "&" : "?") + options;
        return DriverManager.getConnection(full, target.user(), target.password());
    }

    private Connection connect() throws SQLException {
        return connect(database, "");
    }

    private void execute(String sql) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    @Test
    void ddlCreatesATableTheCatalogDescribes() throws SQLException {
        execute("CREATE TABLE ddl_t (id UInt64, name String) ENGINE = MergeTree ORDER BY id");
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT name, type FROM system.columns WHERE database = currentDatabase()"
                     + " AND table = 'ddl_t' ORDER BY position")) {
            List<String> columns = new ArrayList<>();
            while (rs.next()) {
                columns.add(rs.getString(1) + ":" + rs.getString(2));
            }
            assertThat(columns).containsExactly("id:UInt64", "name:String");
        }
        execute("DROP TABLE ddl_t");
    }

    @Test
    void parametersAreBoundNotInterpolated() throws SQLException {
        execute("CREATE TABLE params_t (k String, v Int32) ENGINE = MergeTree ORDER BY k");
        execute("INSERT INTO params_t VALUES ('a', 1), ('b', 2), ('x'' OR 1=1 --', 3)");
        try (Connection c = connect();
             PreparedStatement ps = c.prepareStatement("SELECT v FROM params_t WHERE k = ? AND v >= ? ORDER BY v")) {
            ps.setString(1, "x' OR 1=1 --");
            ps.setInt(2, 0);
            assertThat(ints(ps)).containsExactly(3);
            ps.setString(1, "' OR '1'='1");
            assertThat(ints(ps)).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {VALUES, ROW_BINARY})
    void aBatchOf100kRowsReadsBackExactly(String options) throws SQLException {
        String table = options.equals(VALUES) ? "batch_values" : "batch_rowbinary";
        execute("CREATE TABLE " + table + " (id UInt32, ts DateTime64(6, 'UTC'), v Float64, s String)"
                + " ENGINE = MergeTree ORDER BY id");
        int rows = 100_000;
        Instant base = Instant.parse("2026-03-01T00:00:00Z");
        try (Connection c = connect(database, options);
             PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, ts, v, s) VALUES (?, ?, ?, ?)")) {
            for (int i = 0; i < rows; i++) {
                ps.setInt(1, i);
                ps.setObject(2, base.plusNanos(i * 1_000L));
                ps.setDouble(3, i / 7.0);
                ps.setString(4, "row-" + i);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, ts, v, s FROM " + table + " ORDER BY id")) {
            int i = 0;
            while (rs.next()) {
                assertThat(rs.getInt(1)).isEqualTo(i);
                assertThat(rs.getObject(2, Instant.class)).isEqualTo(base.plusNanos(i * 1_000L));
                if (options.equals(VALUES)) {
                    // Measured: ClickHouse's Values parser reads e.g. 2.857142857142857 as 2.8571428571428568.
                    assertThat(rs.getDouble(3)).isCloseTo(i / 7.0, within(Math.ulp(i / 7.0)));
                } else {
                    assertThat(rs.getDouble(3)).isEqualTo(i / 7.0);
                }
                assertThat(rs.getString(4)).isEqualTo("row-" + i);
                i++;
            }
            assertThat(i).isEqualTo(rows);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {VALUES, ROW_BINARY})
    void nullsMapsAndMicrosecondTimestampsRoundTrip(String options) throws SQLException {
        String table = options.equals(VALUES) ? "types_values" : "types_rowbinary";
        execute("CREATE TABLE " + table + " (id UInt32, ts DateTime64(6, 'UTC'), labels Map(String, String),"
                + " q Map(String, Float64), n Nullable(Float64), ns Nullable(String)) ENGINE = MergeTree ORDER BY id");
        Instant ts = Instant.parse("2026-01-02T03:04:05.123456Z");
        try (Connection c = connect(database, options);
             PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?, ?, ?, ?)")) {
            ps.setInt(1, 1);
            ps.setObject(2, ts);
            ps.setObject(3, Map.of("host", "vm-1", "quote'", "back\\slash"));
            ps.setObject(4, Map.of("0.95", 12.5));
            ps.setNull(5, Types.DOUBLE);
            ps.setNull(6, Types.VARCHAR);
            ps.addBatch();
            ps.setInt(1, 2);
            ps.setObject(2, ts.plusNanos(1_000));
            ps.setObject(3, Map.of());
            ps.setObject(4, Map.of());
            ps.setDouble(5, -0.5);
            ps.setString(6, "");
            ps.addBatch();
            ps.executeBatch();
        }
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT ts, labels, q, n, ns FROM " + table + " ORDER BY id")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getObject(1, Instant.class)).isEqualTo(ts);
            assertThat((Map<?, ?>) rs.getObject(2)).isEqualTo(Map.of("host", "vm-1", "quote'", "back\\slash"));
            assertThat((Map<?, ?>) rs.getObject(3)).isEqualTo(Map.of("0.95", 12.5));
            assertThat(rs.getObject(4)).isNull();
            assertThat(rs.getString(5)).isNull();
            assertThat(rs.next()).isTrue();
            assertThat(rs.getObject(1, Instant.class)).isEqualTo(ts.plusNanos(1_000));
            assertThat((Map<?, ?>) rs.getObject(2)).isEmpty();
            assertThat(rs.getDouble(4)).isEqualTo(-0.5);
            assertThat(rs.wasNull()).isFalse();
            assertThat(rs.getString(5)).isEmpty();
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void unicodeAndEscapesSurviveBothDirections() throws SQLException {
        List<String> texts = List.of("héllo wörld", "日本語のテキスト", "emoji 🚀🔥 astral", "مرحبا", "tab\tnew\nline",
                "quote ' double \" back \\ slash", "nul\u0000byte");
        execute("CREATE TABLE unicode_t (id UInt32, s String) ENGINE = MergeTree ORDER BY id");
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("INSERT INTO unicode_t VALUES (?, ?)")) {
            for (int i = 0; i < texts.size(); i++) {
                ps.setInt(1, i);
                ps.setString(2, texts.get(i));
                ps.addBatch();
            }
            ps.executeBatch();
        }
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT s, s = ? FROM unicode_t WHERE id = ?")) {
            for (int i = 0; i < texts.size(); i++) {
                ps.setString(1, texts.get(i));
                ps.setInt(2, i);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo(texts.get(i));
                    assertThat(rs.getBoolean(2)).as("bound value equals stored value for %s", texts.get(i)).isTrue();
                }
            }
        }
    }

    @Test
    void aSyntaxErrorIsAnSqlExceptionWithCode62() {
        assertThatThrownBy(() -> {
            try (Connection c = connect(); Statement s = c.createStatement()) {
                s.executeQuery("SELEC 1");
            }
        }).isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getErrorCode()).isEqualTo(62);
            assertThat(e.getMessage()).contains("Syntax error");
        });
    }

    @Test
    void anUnknownTableIsCode60() {
        assertThatThrownBy(() -> {
            try (Connection c = connect(); Statement s = c.createStatement()) {
                s.executeQuery("SELECT * FROM no_such_table");
            }
        }).isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(60));
    }

    @Test
    void aReaderSeesAWriterMakeProgressWithoutErrors() throws Exception {
        execute("CREATE TABLE concurrent_t (batch UInt32, i UInt32) ENGINE = MergeTree ORDER BY (batch, i)");
        int batches = 20;
        int perBatch = 500;
        AtomicBoolean writing = new AtomicBoolean(true);
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try (Connection c = connect();
                 PreparedStatement ps = c.prepareStatement("INSERT INTO concurrent_t VALUES (?, ?)")) {
                for (int b = 0; b < batches; b++) {
                    for (int i = 0; i < perBatch; i++) {
                        ps.setInt(1, b);
                        ps.setInt(2, i);
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            } finally {
                writing.set(false);
            }
        });
        List<Long> seen = new ArrayList<>();
        try (Connection c = connect(); Statement s = c.createStatement()) {
            while (writing.get()) {
                try (ResultSet rs = s.executeQuery("SELECT count() FROM concurrent_t")) {
                    rs.next();
                    long count = rs.getLong(1);
                    // Inserts are atomic per batch: a reader never sees half a batch.
                    assertThat(count % perBatch).isZero();
                    seen.add(count);
                }
            }
        }
        writer.join();
        assertThat(seen).isSorted();
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(), uniqExact(batch) FROM concurrent_t")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo((long) batches * perBatch);
            assertThat(rs.getLong(2)).isEqualTo(batches);
        }
    }

    private static List<Integer> ints(PreparedStatement ps) throws SQLException {
        List<Integer> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getInt(1));
            }
        }
        return out;
    }
}
