package dev.caplab.store.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.RunDeleted;
import dev.caplab.store.schema.Table;
import dev.caplab.store.testing.ClickHouseTestExtension;
import dev.caplab.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Erasing deleted runs against a real engine: every table caplab writes, and a table a later migration could add,
 * loses the deleted run's rows and keeps the other run's; the record of the deletion stays.
 */
@ExtendWith(ClickHouseTestExtension.class)
class DeletedRunErasureIT {

    /** A table no repository knows, as a later migration could add one. */
    private static final String LATER_TABLE = "later_table";

    private final TestDatabase db;

    DeletedRunErasureIT(TestDatabase db) {
        this.db = db;
    }

    @Test
    void erasingADeletedRunEmptiesEveryTableOfItsRowsAndOnlyOfThem() throws SQLException {
        // every table of the schema but the samples view (its rows are sample_points') and the deletions
        List<String> tables = new ArrayList<>(Arrays.stream(Table.values())
                .filter(t -> t != Table.SAMPLES && t != Table.DELETED_RUNS).map(Table::sqlName).toList());
        execute("CREATE TABLE " + LATER_TABLE + " (run_id String, n UInt32) ENGINE = MergeTree ORDER BY run_id");
        tables.add(LATER_TABLE);
        for (String table : tables) {
            // one row per run: run_id leads every table's key, so merges never fold the two
            execute("INSERT INTO " + table + " (run_id) VALUES ('gone'), ('kept')");
        }
        assertThat(count(Table.SAMPLES.sqlName(), "gone")).as("the view shows the point").isEqualTo(1);
        DeletedRunRepository deletions = new DeletedRunRepository(db.dataSource());
        deletions.insertBatch(List.of(RunDeleted.newBuilder().setRunId("gone")
                .setDeletedAt(Instant.parse("2026-05-01T10:00:00Z")).setReason("stray").build()),
                "erasure-1");

        assertThat(deletions.deletedAmong(List.of("gone", "kept", "never", "gone"))).isEqualTo(Set.of("gone"));
        assertThat(deletions.deletedAmong(List.of())).isEmpty();
        assertThat(deletions.erase(List.of("gone"))).containsExactlyInAnyOrderElementsOf(tables);

        for (String table : tables) {
            assertThat(count(table, "gone")).as(table).isZero();
            assertThat(count(table, "kept")).as(table).isEqualTo(1);
        }
        assertThat(count(Table.SAMPLES.sqlName(), "gone")).isZero();
        assertThat(count(Table.SAMPLES.sqlName(), "kept")).isEqualTo(1);
        assertThat(deletions.find("gone")).as("the deletion is the record").get()
                .extracting(RunDeleted::getReason).isEqualTo("stray");
        assertThat(deletions.erase(List.of())).as("no run, no statement").isEmpty();
    }

    private long count(String table, String runId) throws SQLException {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count() FROM " + table + " WHERE run_id = '" + runId + "'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
