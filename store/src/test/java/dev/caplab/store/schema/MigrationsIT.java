package dev.caplab.store.schema;

import dev.caplab.store.access.StoreDataSources;
import dev.caplab.store.testing.EmbeddedClickHouse;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Migrations on a real engine: created once, recorded, never silently re-applied or edited. */
class MigrationsIT {

    private final EmbeddedClickHouse clickHouse = EmbeddedClickHouse.shared();

    @Test
    void applyingTwiceAppliesOnceAndCreatesEveryTable() throws SQLException {
        String database = "migrations_it_" + ProcessHandle.current().pid();
        try (var pool = StoreDataSources.create(clickHouse.jdbcUrl("default"), clickHouse.user(),
                clickHouse.password())) {
            assertThat(Migrations.apply(pool, database)).hasSize(Migrations.load().size());
            assertThat(Migrations.apply(pool, database)).isEmpty();
            try (Connection c = pool.getConnection(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT name FROM system.tables WHERE database = '" + database
                         + "' ORDER BY name")) {
                List<String> tables = new ArrayList<>();
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
                assertThat(tables).containsExactly("alerts", "annotations", "capacity_fits", "deleted_runs", "run_conclusions",
                        "run_lateness", "runs",
                        "sample_points", "sample_series", "samples", "schema_migrations", "step_aggregates",
                        "step_verdicts", "steps");
                s.execute("DROP DATABASE " + database);
            }
        }
    }

    @Test
    void anEditedAppliedMigrationIsRefused() throws SQLException {
        String database = "migrations_edit_" + ProcessHandle.current().pid();
        try (var pool = StoreDataSources.create(clickHouse.jdbcUrl("default"), clickHouse.user(),
                clickHouse.password())) {
            Migrations.apply(pool, database);
            try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
                s.execute("TRUNCATE TABLE " + database + ".schema_migrations");
                s.execute("INSERT INTO " + database + ".schema_migrations VALUES (1, 'V001__runs_and_steps.sql',"
                        + " 'not-the-checksum', now64(3))");
            }
            assertThatThrownBy(() -> Migrations.apply(pool, database)).isInstanceOf(MigrationException.class)
                    .hasMessageContaining("V001__runs_and_steps.sql").hasMessageContaining("never edit");
            try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE " + database);
            }
        }
    }
}
