package dev.caplab.store.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.store.access.SampleRepository;
import dev.caplab.store.access.StoreDataSources;
import dev.caplab.store.measure.EgressMeasurement;
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
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * V009 on a store 0.1.0 filled: every reader's answer about the samples written before is the same after it (the
 * answers before come from the engine on the old schema), the columns have their new types and codec, and the
 * dedup window still drops a replayed batch and takes a new one.
 */
class SamplesInsertCpuMigrationIT {

    private static final Instant T0 = Instant.parse("2026-11-30T23:59:58.123456Z");

    private final EmbeddedClickHouse clickHouse = EmbeddedClickHouse.shared();

    @Test
    void samplesWrittenBeforeReadTheSameAfterAndReplaysStayDeduplicated() throws SQLException {
        String database = "samples_v009_" + ProcessHandle.current().pid();
        List<SampleRow> rows = rows("old-run", 0, 3_000);
        rows.addAll(rows("other-run", 3_000, 1_000));
        try (var server = StoreDataSources.create(clickHouse.jdbcUrl("default"), clickHouse.user(),
                clickHouse.password())) {
            Migrations.apply(server, database, 8);
            try (var pool = StoreDataSources.create(clickHouse.jdbcUrl(database), clickHouse.user(),
                    clickHouse.password())) {
                SampleRepository samples = new SampleRepository(pool);
                samples.insertBatch(rows.subList(0, 2_500), "batch-1");
                samples.insertBatch(rows.subList(2_500, rows.size()), "batch-2");
                assertThat(typeOf(pool, "metric")).isEqualTo("LowCardinality(String)");
                Answers before = answers(pool, samples);
                assertThat(before.count()).isEqualTo(3_000);
                assertThat(before.ofMetric()).isNotEmpty();
                assertThat(before.egress()).isNotEqualTo(java.util.Optional.empty());
                assertThat(before.filtered()).contains("500").hasSizeGreaterThan(1_000);

                assertThat(Migrations.apply(server, database)).extracting(Migration::name)
                        .containsExactly("V009__samples_insert_cpu.sql");

                assertThat(answers(pool, samples)).usingRecursiveComparison().isEqualTo(before);
                assertThat(typeOf(pool, "source")).isEqualTo("String");
                assertThat(typeOf(pool, "metric")).isEqualTo("String");
                assertThat(typeOf(pool, "kind")).isEqualTo("String");
                assertThat(scalar(pool, "SELECT compression_codec FROM system.columns WHERE database = currentDatabase()"
                        + " AND table = 'samples' AND name = 'ts'")).isEqualTo("CODEC(DoubleDelta, LZ4)");

                assertThat(scalar(pool, "SELECT create_table_query FROM system.tables WHERE database = currentDatabase()"
                        + " AND name = 'samples'")).contains("vertical_merge_algorithm_min_columns_to_activate = 1");

                samples.insertBatch(rows.subList(0, 2_500), "batch-1");
                assertThat(scalar(pool, "SELECT count() FROM samples")).as("a replayed batch is dropped")
                        .isEqualTo(String.valueOf(rows.size()));
                List<SampleRow> later = rows("old-run", 4_000, 500);
                samples.insertBatch(later, "batch-3");
                assertThat(samples.countOfRun("old-run")).isEqualTo(3_500);
                List<SampleRow> expected = new ArrayList<>(rows.subList(0, 3_000));
                expected.addAll(later);
                assertThat(samples.ofRun("old-run")).containsExactlyInAnyOrderElementsOf(expected);
            }
        } finally {
            try (var server = StoreDataSources.create(clickHouse.jdbcUrl("default"), clickHouse.user(),
                    clickHouse.password()); Connection c = server.getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + database);
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
                samples.countOfRun("old-run"),
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
}
