package dev.caplab.store.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.RunBottleneck;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.store.access.RunConclusionRepository;
import dev.caplab.store.access.StoreDataSources;
import dev.caplab.store.testing.EmbeddedClickHouse;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * V020 on conclusions stored without the bottleneck's role: each gets the role of the bottleneck's own estimate, else
 * the first role among its source's other estimates; none without a bottleneck or without an estimate of its source.
 */
class BottleneckRoleMigrationIT {

    private final EmbeddedClickHouse clickHouse = EmbeddedClickHouse.shared();

    @Test
    void aStoredBottleneckTakesTheRoleOfItsEstimatesOnce() throws SQLException {
        String database = "bottleneck_role_" + ProcessHandle.current().pid();
        // the node's memory (host) is listed before its cpu (sut); the edge's first estimate has no role
        String resources = "[('node', 'mem.bytes', 1e9, 1e6, NULL, NULL, NULL, NULL, 3, 5, NULL, 10, 20, 4e9, NULL,"
                + " NULL, NULL, NULL, false, NULL, false, NULL, NULL, 'host'),"
                + " ('node', 'cpu.cores', 0.1, 0.05, NULL, NULL, NULL, NULL, 3, 5, NULL, 10, 20, 2, 22, NULL, NULL,"
                + " NULL, false, NULL, false, NULL, NULL, 'sut'),"
                + " ('edge', 'cpu.cores', 0.1, 0.05, NULL, NULL, NULL, NULL, 3, 5, NULL, 10, 20, 2, 22, NULL, NULL,"
                + " NULL, false, NULL, false, NULL, NULL, NULL),"
                + " ('edge', 'mem.bytes', 1e9, 1e6, NULL, NULL, NULL, NULL, 3, 5, NULL, 10, 20, 4e9, NULL, NULL,"
                + " NULL, NULL, false, NULL, false, NULL, NULL, 'host')]";
        try (var server = StoreDataSources.create(clickHouse.jdbcUrl("default"), clickHouse.user(),
                clickHouse.password())) {
            Migrations.apply(server, database, 19);
            try (Connection c = server.getConnection(); Statement s = c.createStatement()) {
                s.execute("INSERT INTO " + database + ".run_conclusions (run_id, steps_judged, steps_skipped,"
                        + " bottleneck_source, bottleneck_metric, bottleneck_rule, bottleneck_value,"
                        + " bottleneck_step_index, margin, resources, run_closed, model, concluded_at, version) VALUES"
                        + " ('own', 4, 0, 'node', 'cpu.cores', 'SMALLEST_SAFE_CAPACITY', 22, NULL, 0.6, " + resources
                        + ", true, 'm', '2026-07-28 11:00:00', 1),"
                        + " ('unfitted', 4, 0, 'node', 'net.tx.mbps', 'FIRST_STEP_OVER_MARGIN', 0.7, 3, 0.6, "
                        + resources + ", true, 'm', '2026-07-28 11:00:00', 1),"
                        + " ('unroled', 4, 0, 'edge', 'cpu.cores', 'SMALLEST_SAFE_CAPACITY', 22, NULL, 0.6, "
                        + resources + ", true, 'm', '2026-07-28 11:00:00', 1),"
                        + " ('elsewhere', 4, 0, 'other', 'cpu.cores', 'FIRST_STEP_OVER_MARGIN', 0.8, 2, 0.6, "
                        + resources + ", true, 'm', '2026-07-28 11:00:00', 1),"
                        + " ('none', 4, 0, NULL, NULL, NULL, NULL, NULL, 0.6, " + resources
                        + ", true, 'm', '2026-07-28 11:00:00', 1)");
            }
            assertThat(Migrations.apply(server, database)).extracting(Migration::name)
                    .containsExactly("V020__run_conclusion_bottleneck_role.sql");
        }
        try (var pool = StoreDataSources.create(clickHouse.jdbcUrl(database), clickHouse.user(),
                clickHouse.password())) {
            RunConclusionRepository conclusions = new RunConclusionRepository(pool);
            assertThat(role(conclusions, "own")).isEqualTo("sut");
            assertThat(role(conclusions, "unfitted")).isEqualTo("host");
            assertThat(role(conclusions, "unroled")).isEqualTo("host");
            assertThat(role(conclusions, "elsewhere")).isNull();
            assertThat(conclusions.latest("none").orElseThrow().getBottleneck()).isNull();
            try (Connection c = pool.getConnection(); Statement s = c.createStatement();
                 var rs = s.executeQuery("SELECT default_kind FROM system.columns WHERE database = '" + database
                         + "' AND table = 'run_conclusions' AND name = 'bottleneck_role'")) {
                rs.next();
                assertThat(rs.getString(1)).as("the role is stored, not computed on read").isEmpty();
            }
        } finally {
            try (var server = StoreDataSources.create(clickHouse.jdbcUrl("default"), clickHouse.user(),
                    clickHouse.password()); Connection c = server.getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + database);
            }
        }
    }

    private static String role(RunConclusionRepository conclusions, String runId) {
        RunBottleneck b = conclusions.latest(runId).map(RunConclusion::getBottleneck).orElseThrow();
        return b.getRole();
    }
}
