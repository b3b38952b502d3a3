package dev.caplab.bench.pipeline;

import dev.caplab.app.cli.ClickHouseTarget;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What chDB did for a pass, from its cumulative {@code system.events} counters (inserts, parts written, merges and
 * the rows and bytes they rewrote) read before and after, plus the samples table's active parts at the end: the
 * engine side of the sink's CPU per sample, to tell an insert-bound engine from a merge-bound one. The counters
 * cover every table (the derived tables' few rows too); chDB keeps no system.query_log to split them by table.
 */
final class EngineActivity {

    private static final List<String> EVENTS = List.of("InsertQuery", "InsertedRows", "InsertedBytes",
            "MergeTreeDataWriterBlocks", "MergeTreeDataWriterRows", "MergeTreeDataWriterCompressedBytes",
            "DuplicatedInsertedBlocks", "Merge", "MergedRows", "MergedUncompressedBytes", "MergeTotalMilliseconds",
            "MergesTimeMilliseconds", "MergeSourceParts", "SelectQuery", "SelectQueryTimeMicroseconds",
            "InsertQueryTimeMicroseconds", "UserTimeMicroseconds", "SystemTimeMicroseconds");

    private final ClickHouseTarget clickhouse;
    private final Map<String, Long> before;
    private final long startedEpochSecond;

    private EngineActivity(ClickHouseTarget clickhouse, Map<String, Long> before, long startedEpochSecond) {
        this.clickhouse = clickhouse;
        this.before = before;
        this.startedEpochSecond = startedEpochSecond;
    }

    static EngineActivity start(ClickHouseTarget clickhouse) throws SQLException {
        return new EngineActivity(clickhouse, events(clickhouse), Instant.now().getEpochSecond());
    }

    void print(PrintStream out, long samples) throws SQLException {
        Map<String, Long> after = events(clickhouse);
        out.println("chDB during the pass (system.events deltas):");
        for (String e : EVENTS) {
            long d = after.getOrDefault(e, 0L) - before.getOrDefault(e, 0L);
            out.printf(Locale.ROOT, "  %-36s %,15d  (%.3f per sample)%n", e, d, (double) d / samples);
        }
        // An insert writes one level-0 part per table (and partition), so the parts created during the pass split
        // the inserts by table; outdated parts stay listed for old_parts_lifetime (8 min), longer than a pass.
        try (Connection c = AggregateWatcher.connect(clickhouse);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT table, count(), sum(rows) FROM system.parts WHERE level = 0"
                     + " AND database = currentDatabase() AND toUnixTimestamp(modification_time) >= "
                     + startedEpochSecond + " GROUP BY table ORDER BY count() DESC")) {
            while (rs.next()) {
                out.printf(Locale.ROOT, "  parts written into %s during the pass: %d, %,d rows%n", rs.getString(1),
                        rs.getLong(2), rs.getLong(3));
            }
        }
        try (Connection c = AggregateWatcher.connect(clickhouse);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT table, part_type, count(), sum(rows), max(level)"
                     + " FROM system.parts WHERE active AND table = 'sample_points' GROUP BY table, part_type")) {
            while (rs.next()) {
                out.printf(Locale.ROOT, "  active parts of %s: %s × %d, %,d rows, max level %d%n", rs.getString(1),
                        rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getLong(5));
            }
        }
        // Outdated parts stay listed for old_parts_lifetime (8 min): level 0 are the inserts of the warm-up and the
        // pass into sample_points, the levels above what merges wrote.
        try (Connection c = AggregateWatcher.connect(clickhouse);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT level, count(), sum(rows), max(rows) FROM system.parts"
                     + " WHERE table = 'sample_points' GROUP BY level ORDER BY level")) {
            while (rs.next()) {
                out.printf(Locale.ROOT, "  sample_points parts of level %d (active or outdated): %d, %,d rows, largest %,d%n",
                        rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4));
            }
        }
    }

    private static Map<String, Long> events(ClickHouseTarget clickhouse) throws SQLException {
        Map<String, Long> out = new LinkedHashMap<>();
        try (Connection c = AggregateWatcher.connect(clickhouse);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT event, value FROM system.events")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getLong(2));
            }
        }
        return out;
    }
}
