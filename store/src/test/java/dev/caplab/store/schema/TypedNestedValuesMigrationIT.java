package dev.caplab.store.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.Comparator;
import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.schema.event.RuleOutcome;
import dev.caplab.schema.event.Segment;
import dev.caplab.schema.event.SloRule;
import dev.caplab.schema.serde.AvroJson;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.RunConclusionRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.access.StepVerdictRepository;
import dev.caplab.store.access.StoreDataSources;
import dev.caplab.store.testing.EmbeddedClickHouse;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * V006 on a store an older release filled: the nested values it kept as the text Avro's toString prints come back
 * as typed values, the text columns are gone, and new rows are written typed.
 */
class TypedNestedValuesMigrationIT {

    private final EmbeddedClickHouse clickHouse = EmbeddedClickHouse.shared();

    @Test
    void rowsStoredAsAvroTextBecomeTypedValues() throws SQLException {
        String database = "typed_nested_" + ProcessHandle.current().pid();
        try (var server = StoreDataSources.create(clickHouse.jdbcUrl("default"), clickHouse.user(),
                clickHouse.password())) {
            Migrations.apply(server, database, 5);
            try (Connection c = server.getConnection(); Statement s = c.createStatement()) {
                // as the sink wrote them before V006: Avro's toString of each list's records
                s.execute("INSERT INTO " + database + ".runs (run_id, started_at, sut_name, provider, tool, labels,"
                        + " planned_steps_json, slo_rules_json, load_expression, version) VALUES ('old',"
                        + " '2026-07-28 10:00:00', 'mmx', 'lightnode', 'k6', map(),"
                        + " '[{\"users\": 10.0}, {\"users\": 20.0, \"pubs\": 2.0}]',"
                        + " '[{\"name\": \"p95-latency\", \"metric\": \"http.req.duration.ms\", \"statistic\": \"p95\","
                        + " \"comparator\": \"LE\", \"threshold\": 500.0, \"source\": null}, {\"name\": \"no-drops\","
                        + " \"metric\": \"sessions.dropped\", \"statistic\": \"max\", \"comparator\": \"EQ\","
                        + " \"threshold\": 0.0, \"source\": \"sfu-1\"}]', 'users', 1)");
                s.execute("INSERT INTO " + database + ".step_verdicts (run_id, step_index, load, x, passed,"
                        + " outcomes_json, contaminated, version) VALUES ('old', 4, map('users', 19.0), 19.0, false,"
                        + " '[{\"rule\": {\"name\": \"no-drops\", \"metric\": \"sessions.dropped\", \"statistic\":"
                        + " \"max\", \"comparator\": \"EQ\", \"threshold\": 0.0, \"source\": \"sfu-1\"}, \"observed\":"
                        + " 3.0, \"passed\": false, \"reason\": \"3 sessions dropped\"}]', false, 7)");
                s.execute("INSERT INTO " + database + ".capacity_fits (run_id, source, metric, model, model_version,"
                        + " load_expression, steps_used, segments_json, breakpoints_json, cliff, margin, bottleneck,"
                        + " fitted_at, version) VALUES ('old', 'node', 'cpu.cores', 'segmented-1', '1', 'users', 5,"
                        + " '[{\"fromX\": 10.0, \"toX\": 18.0, \"intercept\": 0.05, \"slope\": 0.022, \"slopeStdErr\":"
                        + " 0.004}, {\"fromX\": 18.0, \"toX\": 19.0, \"intercept\": -8.5, \"slope\": 0.5,"
                        + " \"slopeStdErr\": null}]', '[{\"x\": 18.0, \"stdErr\": 0.3, \"lower95\": 17.4, \"upper95\":"
                        + " 18.6}]', true, 0.6, true, '2026-07-28 11:00:00', 3)");
            }
            assertThat(Migrations.apply(server, database)).extracting(Migration::name)
                    .containsExactlyElementsOf(migrationsFrom(6));
        }
        try (var pool = StoreDataSources.create(clickHouse.jdbcUrl(database), clickHouse.user(),
                clickHouse.password())) {
            SloRule p95 = SloRule.newBuilder().setName("p95-latency").setMetric("http.req.duration.ms")
                    .setStatistic("p95").setComparator(Comparator.LE).setThreshold(500.0).build();
            SloRule noDrops = SloRule.newBuilder().setName("no-drops").setMetric("sessions.dropped").setStatistic("max")
                    .setComparator(Comparator.EQ).setThreshold(0.0).setSource("sfu-1").build();
            assertThat(new RunRepository(pool).find("old")).get().satisfies(r -> {
                assertThat(r.plannedSteps()).containsExactly(Map.of("users", 10.0), Map.of("users", 20.0, "pubs", 2.0));
                assertThat(r.sloRules()).containsExactly(p95, noDrops);
            });
            assertThat(new StepVerdictRepository(pool).ofRun("old")).singleElement().satisfies(v ->
                    assertThat(v.getOutcomes()).containsExactly(RuleOutcome.newBuilder().setRule(noDrops)
                            .setObserved(3.0).setPassed(false).setReason("3 sessions dropped").build()));
            assertThat(new CapacityFitRepository(pool).ofRun("old")).singleElement().satisfies(f -> {
                assertThat(f.getSegments()).containsExactly(Segment.newBuilder().setFromX(10.0).setToX(18.0)
                                .setIntercept(0.05).setSlope(0.022).setSlopeStdErr(0.004).build(),
                        Segment.newBuilder().setFromX(18.0).setToX(19.0).setIntercept(-8.5).setSlope(0.5).build());
                assertThat(f.getBreakpoints()).containsExactly(Breakpoint.newBuilder().setX(18.0).setStdErr(0.3)
                        .setLower95(17.4).setUpper95(18.6).build());
            });
            try (Connection c = pool.getConnection(); Statement s = c.createStatement();
                 var rs = s.executeQuery("SELECT count() FROM system.columns WHERE database = '" + database
                         + "' AND table IN ('runs', 'step_verdicts', 'capacity_fits') AND name LIKE '%\\_json'")) {
                rs.next();
                // V006's tables; run_conclusions' estimates are V018's (below)
                assertThat(rs.getLong(1)).as("no *_json column is left in the tables V006 migrated").isZero();
            }
        } finally {
            try (var server = StoreDataSources.create(clickHouse.jdbcUrl("default"), clickHouse.user(),
                    clickHouse.password()); Connection c = server.getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + database);
            }
        }
    }

    /**
     * V018 on conclusions the sink wrote before it: each estimate in Avro's JSON encoding (nullable fields wrapped,
     * {"double": 0.004}) comes back as the typed tuple, nulls as nulls, and resources_json is gone.
     */
    @Test
    void estimatesStoredInAvrosJsonEncodingBecomeTypedTuples() throws SQLException {
        String database = "typed_estimates_" + ProcessHandle.current().pid();
        ResourceEstimate cpu = ResourceEstimate.newBuilder().setSource("node").setMetric("cpu.cores")
                .setIntercept(0.05).setSlope(0.022).setSlopeVariance(0.004 * 0.004).setResidualStdErr(0.01)
                .setDegreesOfFreedom(2).setPreKneeSteps(4).setRSquared(0.97).setFromX(10).setToX(18).setCeiling(1.0)
                .setSafeCapacityX(18.0).setSafeCapacityStdErr(1.5).setCappedByCliff(true).setKneeX(18.0)
                .setCliff(true).setCliffStepIndex(4).setLastStableX(18.0).setRole("sut").build();
        ResourceEstimate egress = ResourceEstimate.newBuilder().setSource("node").setMetric("net.tx.mbps")
                .setIntercept(0.0).setSlope(1.9).setDegreesOfFreedom(3).setPreKneeSteps(5).setFromX(10).setToX(19)
                .setCappedByCliff(false).setCliff(false).build();
        String json = AvroJson.encodeArray(List.of(cpu, egress), ResourceEstimate.getClassSchema());
        assertThat(json).as("the encoding the conversion reads").contains("\"ceiling\":{\"double\":1.0}")
                .contains("\"cliffStepIndex\":{\"int\":4}").contains("\"role\":{\"string\":\"sut\"}")
                .contains("\"ceiling\":null");
        try (var server = StoreDataSources.create(clickHouse.jdbcUrl("default"), clickHouse.user(),
                clickHouse.password())) {
            Migrations.apply(server, database, 17);
            try (Connection c = server.getConnection(); Statement s = c.createStatement()) {
                s.execute("INSERT INTO " + database + ".run_conclusions (run_id, steps_judged, steps_skipped, margin,"
                        + " resources_json, run_closed, model, concluded_at, version) VALUES ('old', 5, 0, 0.6, '"
                        + json.replace("\\", "\\\\").replace("'", "\\'") + "', true, 'caplab-run-conclusion/1',"
                        + " '2026-07-28 11:00:00', 9)");
            }
            assertThat(Migrations.apply(server, database)).extracting(Migration::name)
                    .containsExactlyElementsOf(migrationsFrom(18));
        }
        try (var pool = StoreDataSources.create(clickHouse.jdbcUrl(database), clickHouse.user(),
                clickHouse.password())) {
            // every field as the estimates were built above, nulls as nulls
            assertThat(new RunConclusionRepository(pool).latest("old")).get().satisfies(r ->
                    assertThat(r.getResources()).containsExactly(cpu, egress));
            try (Connection c = pool.getConnection(); Statement s = c.createStatement();
                 var rs = s.executeQuery("SELECT count() FROM system.columns WHERE database = '" + database
                         + "' AND table = 'run_conclusions' AND name = 'resources_json'")) {
                rs.next();
                assertThat(rs.getLong(1)).as("resources_json is gone").isZero();
            }
        } finally {
            try (var server = StoreDataSources.create(clickHouse.jdbcUrl("default"), clickHouse.user(),
                    clickHouse.password()); Connection c = server.getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + database);
            }
        }
    }

    /** The names of every migration from {@code version} on, as the DDL folder lists them: those an older database lacks. */
    private static List<String> migrationsFrom(int version) {
        return Migrations.load().stream().filter(m -> m.version() >= version).map(Migration::name).toList();
    }
}
