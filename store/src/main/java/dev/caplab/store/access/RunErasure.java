package dev.caplab.store.access;

import dev.caplab.store.schema.Table;
import java.util.Collection;
import java.util.List;
import javax.sql.DataSource;

/**
 * Erases runs' rows from every table of the connection's database that has a {@code run_id} column. The tables are
 * read from the schema itself at each erasure ({@code system.columns}), so a table a later migration adds is covered
 * with no list to keep. Views are left alone (the {@code samples} view shows {@code sample_points}' rows), and so is
 * {@code deleted_runs}, the record of the deletions.
 *
 * <p>A lightweight {@code DELETE} marks the rows deleted, and every later read skips them ({@code FINAL} too); merges
 * drop them from disk later. It returns once the rows are marked, on every replica of a replicated table
 * ({@code lightweight_deletes_sync = 2}, pinned), so any insert that finished before it started is erased with it.
 */
final class RunErasure {

    /** MergeTree-family tables (plain, replacing, replicated) with a run_id column, but the deletions' own. */
    private static final String TABLES = "SELECT name FROM system.tables WHERE database = currentDatabase()"
            + " AND engine LIKE '%MergeTree' AND name != '" + Table.DELETED_RUNS.sqlName() + "'"
            + " AND name IN (SELECT table FROM system.columns WHERE database = currentDatabase() AND name = 'run_id')"
            + " ORDER BY name";

    private RunErasure() {
    }

    /** Erases every row of {@code runIds} from each table with a run_id; returns the tables it erased from. */
    static List<String> erase(DataSource dataSource, Collection<String> runIds) {
        List<String> distinct = runIds.stream().distinct().toList();
        if (distinct.isEmpty()) {
            return List.of();
        }
        List<String> tables = TableAccess.query(dataSource, "listing the tables with a run_id column", TABLES,
                rs -> rs.getString(1));
        for (String table : tables) {
            TableAccess.execute(dataSource, "erasing the rows of deleted runs " + distinct + " from " + table,
                    "DELETE FROM " + quoted(table) + " WHERE run_id IN (" + Params.placeholders(distinct.size())
                            + ") SETTINGS lightweight_deletes_sync = 2", distinct.toArray());
        }
        return tables;
    }

    /** A table name as a ClickHouse identifier, whatever characters it has. */
    private static String quoted(String name) {
        return "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`";
    }
}
