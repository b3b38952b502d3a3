package dev.caplab.store.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.insert.InsertResponse;
import com.clickhouse.client.api.insert.InsertSettings;
import com.clickhouse.data.ClickHouseFormat;
import com.clickhouse.jdbc.ConnectionImpl;
import dev.caplab.store.access.RowBinaryBuffer;
import dev.caplab.store.access.SampleRepository;
import dev.caplab.store.access.StoreDataSources;
import dev.caplab.schema.vocabulary.EgressMeasurement;
import dev.caplab.store.row.SampleRow;
import dev.caplab.store.testing.EmbeddedClickHouse;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The raw samples' migrations on a store 0.1.0 filled (schema V008, rows written in its layout): V009 (plain String
 * columns, the ts codec, vertical merges), then V010 and V011 (series and points behind a {@code samples} view). Every
 * reader's answer about the samples written before is the same after each (the answers before come from the engine
 * on the old schema); after V010 the repository's batches are stored and deduplicated, and a V010 interrupted
 * half-way runs again to the same answers.
 */
class SampleMigrationsIT {

    private static final Instant T0 = Instant.parse("2026-11-30T23:59:58.123456Z");
    private static final List<String> V008_COLUMNS = List.of("run_id", "ts", "source", "metric", "kind", "value",
            "labels", "summary_window", "summary_count", "summary_window_micros", "summary_mean", "summary_min",
            "summary_max", "summary_quantiles");

    private final EmbeddedClickHouse clickHouse = EmbeddedClickHouse.shared();

    @Test
    void samplesWrittenBeforeReadTheSameAfterEveryMigrationAndNewBatchesStayDeduplicated() throws Exception {
        String database = "samples_migrations_" + ProcessHandle.current().pid();
        List<SampleRow> rows = rows("old-run", 0, 3_000);
        rows.addAll(rows("other-run", 3_000, 1_000));
        try (var server = StoreDataSources.create(clickHouse.jdbcUrl("default"), clickHouse.user(),
                clickHouse.password())) {
            Migrations.apply(server, database, 8);
            try (var pool = StoreDataSources.create(clickHouse.jdbcUrl(database), clickHouse.user(),
                    clickHouse.password())) {
                SampleRepository samples = new SampleRepository(pool);
                insertAsV008(pool, rows.subList(0, 2_500), "batch-1");
                insertAsV008(pool, rows.subList(2_500, rows.size()), "batch-2");
                insertAsV008(pool, rows.subList(0, 2_500), "batch-1");
                assertThat(typeOf(pool, "metric")).isEqualTo("LowCardinality(String)");
                Answers before = answers(pool, samples);
                assertThat(before.count()).isEqualTo(3_000);
                assertThat(before.ofRun()).hasSize(3_000);
                assertThat(before.ofMetric()).isNotEmpty();
                assertThat(before.egress()).isNotEqualTo(java.util.Optional.empty());
                assertThat(before.filtered()).contains("500").hasSizeGreaterThan(1_000);
                long seriesBefore = Long.parseLong(scalar(pool,
                        "SELECT uniqExact(run_id, source, metric, kind, labels) FROM samples"));

                assertThat(Migrations.apply(server, database, 9)).extracting(Migration::name)
                        .containsExactly("V009__samples_insert_cpu.sql");
                assertThat(answers(pool, samples)).usingRecursiveComparison().isEqualTo(before);
                assertThat(typeOf(pool, "source")).isEqualTo("String");
                assertThat(typeOf(pool, "metric")).isEqualTo("String");
                assertThat(typeOf(pool, "kind")).isEqualTo("String");
                assertThat(scalar(pool, "SELECT compression_codec FROM system.columns WHERE database = currentDatabase()"
                        + " AND table = 'samples' AND name = 'ts'")).isEqualTo("CODEC(DoubleDelta, LZ4)");
                assertThat(scalar(pool, "SELECT create_table_query FROM system.tables WHERE database = currentDatabase()"
                        + " AND name = 'samples'")).contains("vertical_merge_algorithm_min_columns_to_activate = 1");

                assertThat(Migrations.apply(server, database)).extracting(Migration::name)
                        .containsExactlyElementsOf(migrationsFrom(10));
                assertThat(answers(pool, samples)).usingRecursiveComparison().isEqualTo(before);
                assertSplit(pool, seriesBefore, 4_000);
                assertThat(samples.countOfRun("old-run")).isEqualTo(3_000);

                List<SampleRow> later = rows("old-run", 4_000, 500);
                samples.insertBatch(later, "batch-3");
                samples.insertBatch(later, "batch-3");
                assertThat(scalar(pool, "SELECT count() FROM samples")).as("a replayed batch is dropped")
                        .isEqualTo(String.valueOf(rows.size() + later.size()));
                assertThat(samples.countOfRun("old-run")).isEqualTo(3_500);
                List<SampleRow> expected = new ArrayList<>(rows.subList(0, 3_000));
                expected.addAll(later);
                assertThat(samples.ofRun("old-run")).containsExactlyInAnyOrderElementsOf(expected);
            }
        } finally {
            drop(database);
        }
    }

    @Test
    void v010InterruptedAfterItsFirstInsertRunsAgainToTheSameAnswers() throws Exception {
        String database = "samples_v010_rerun_" + ProcessHandle.current().pid();
        List<SampleRow> rows = rows("old-run", 0, 2_000);
        try (var server = StoreDataSources.create(clickHouse.jdbcUrl("default"), clickHouse.user(),
                clickHouse.password())) {
            Migrations.apply(server, database, 8);
            try (var pool = StoreDataSources.create(clickHouse.jdbcUrl(database), clickHouse.user(),
                    clickHouse.password())) {
                SampleRepository samples = new SampleRepository(pool);
                insertAsV008(pool, rows, "batch-1");
                Migrations.apply(server, database, 9);
                Answers before = answers(pool, samples);
                long seriesBefore = Long.parseLong(scalar(pool,
                        "SELECT uniqExact(run_id, source, metric, kind, labels) FROM samples"));
                Migration v010 = Migrations.load().stream().filter(m -> m.version() == 10).findFirst().orElseThrow();
                List<String> statements = v010.statements();
                int firstInsert = statements.indexOf(statements.stream().filter(s -> s.strip().startsWith("INSERT"))
                        .findFirst().orElseThrow());
                try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
                    for (String sql : statements.subList(0, firstInsert + 1)) {
                        s.execute(sql); // the process dies after the series are copied, before the points
                    }
                }
                assertThat(Migrations.apply(server, database)).extracting(Migration::name)
                        .containsExactlyElementsOf(migrationsFrom(10));
                assertThat(answers(pool, samples)).usingRecursiveComparison().isEqualTo(before);
                assertSplit(pool, seriesBefore, rows.size());
            }
        } finally {
            drop(database);
        }
    }

    /** samples is the view over the two tables, each series stored once, the old table gone. */
    private static void assertSplit(DataSource pool, long series, long points) throws SQLException {
        assertThat(scalar(pool, "SELECT engine FROM system.tables WHERE database = currentDatabase()"
                + " AND name = 'samples'")).isEqualTo("View");
        assertThat(scalar(pool, "SELECT count() FROM sample_series FINAL")).isEqualTo(String.valueOf(series));
        assertThat(scalar(pool, "SELECT count() FROM sample_points")).isEqualTo(String.valueOf(points));
        assertThat(scalar(pool, "SELECT count() FROM system.tables WHERE database = currentDatabase()"
                + " AND name = 'samples_v009'")).isEqualTo("0");
    }

    private static void drop(String database) throws SQLException {
        try (var server = StoreDataSources.create(EmbeddedClickHouse.shared().jdbcUrl("default"),
                EmbeddedClickHouse.shared().user(), EmbeddedClickHouse.shared().password());
             Connection c = server.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database);
        }
    }

    /**
     * Rows as store 0.1.0's sink wrote them: one RowBinary row per sample into the samples table, labels and quantiles
     * sorted by key, under a dedup token.
     */
    private static void insertAsV008(DataSource pool, List<SampleRow> rows, String token) throws Exception {
        RowBinaryBuffer out = new RowBinaryBuffer(1 << 16);
        for (SampleRow r : rows) {
            out.string(r.runId());
            out.dateTime64Micros(r.ts());
            out.string(r.source());
            out.string(r.metric());
            out.string(r.kind());
            out.float64(r.value());
            out.varint(r.labels().size());
            new TreeMap<>(r.labels()).forEach((k, v) -> {
                out.string(k);
                out.string(v);
            });
            out.nullableString(r.summaryWindow());
            out.nullableInt64(r.summaryCount());
            out.nullableInt64(r.summaryWindowMicros());
            out.nullableFloat64(r.summaryMean());
            out.nullableFloat64(r.summaryMin());
            out.nullableFloat64(r.summaryMax());
            out.varint(r.summaryQuantiles().size());
            new TreeMap<>(r.summaryQuantiles()).forEach((k, v) -> {
                out.string(k);
                out.float64(v);
            });
        }
        try (Connection c = pool.getConnection()) {
            Client client = c.unwrap(ConnectionImpl.class).getClient();
            InsertSettings settings = new InsertSettings();
            settings.setDeduplicationToken(token);
            try (InsertResponse ignored = client.insert("samples", V008_COLUMNS, out.asInputStream(),
                    ClickHouseFormat.RowBinary, settings).get()) {
                // stored
            }
        }
    }

    /** What the readers see: the repository's reads and SQL as the HTTP endpoint's callers write it. */
    private record Answers(List<SampleRow> ofRun, List<SampleRow> ofMetric, long count, Object egress,
                           String everyRow, String grouped, String filtered) {
    }

    private static Answers answers(DataSource pool, SampleRepository samples) throws SQLException {
        return new Answers(samples.ofRun("old-run"),
                samples.ofRun("old-run", "http_req_duration", T0.plusMillis(100), T0.plusSeconds(2)),
                Long.parseLong(scalar(pool, "SELECT count() FROM samples WHERE run_id = 'old-run'")),
                samples.latestEgressMeasurement("old-run"),
                scalar(pool, "SELECT toString(groupArray(tuple(*))) FROM (SELECT * FROM samples"
                        + " ORDER BY run_id, metric, source, ts, value)"),
                scalar(pool, "SELECT toString(groupArray(tuple(metric, source, kind, n, s, first))) FROM (SELECT metric, source,"
                        + " kind, count() AS n, round(sum(value), 6) AS s, min(ts) AS first FROM samples"
                        + " GROUP BY metric, source, kind ORDER BY metric, source, kind)"),
                scalar(pool, "SELECT toString(groupArray(tuple(source, ts, value))) FROM (SELECT source, ts, value FROM samples"
                        + " WHERE run_id = 'old-run' AND metric IN ('vus', 'http_req_duration') AND source > 'host'"
                        + " AND kind = 'GAUGE' AND labels['status'] = '500' ORDER BY source, ts, value)"));
    }

    private static String typeOf(DataSource pool, String column) throws SQLException {
        return scalar(pool, "SELECT type FROM system.columns WHERE database = currentDatabase() AND table = 'samples'"
                + " AND name = '" + column + "'");
    }

    private static String scalar(DataSource pool, String sql) throws SQLException {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement(); var rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Varied rows: several sources, metrics and kinds, labels or none, summaries, a month boundary, µs stamps. */
    private static List<SampleRow> rows(String runId, int first, int n) {
        SplittableRandom random = new SplittableRandom(first);
        String[] sources = {"k6", "host-1", "sfu-2", "iperf"};
        String[] metrics = {"http_req_duration", "vus", "cpu.cores", EgressMeasurement.METRIC};
        List<SampleRow> out = new ArrayList<>(n);
        for (int i = first; i < first + n; i++) {
            Instant ts = T0.plusNanos(i * 997_000L + random.nextInt(1_000) * 1_000L);
            String metric = metrics[i % metrics.length];
            Map<String, String> labels = switch (i % 5) {
                case 0 -> Map.of();
                case 1 -> Map.of("status", "500", "url", "https://test.k6.io/é");
                case 2 -> Map.of(EgressMeasurement.SCOPE, EgressMeasurement.SCOPE_TEST, EgressMeasurement.SIDE,
                        EgressMeasurement.SIDE_SENDER);
                default -> Map.of("status", "200", "method", "GET", "proto", "HTTP/1.1");
            };
            double value = random.nextDouble() * 1_000;
            String source = sources[(i / 7) % sources.length];
            out.add(i % 11 == 0
                    ? new SampleRow(runId, ts, source, metric, "SUMMARY", value, labels, "PT10S", 42L, 10_000_000L,
                            value / 2, 0.5, value, Map.of("p50", value / 3, "p99", value))
                    : SampleRow.of(runId, ts, source, metric, i % 3 == 0 ? "COUNTER" : "GAUGE", value, labels));
        }
        return out;
    }

    /** The names of every migration from {@code version} on, as the DDL folder lists them: those an older database lacks. */
    private static List<String> migrationsFrom(int version) {
        return Migrations.load().stream().filter(m -> m.version() >= version).map(Migration::name).toList();
    }
}
