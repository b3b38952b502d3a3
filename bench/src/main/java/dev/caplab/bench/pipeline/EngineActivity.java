package dev.caplab.bench.pipeline;

import dev.caplab.store.http.HttpSettings;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What chDB did for a pass, from its cumulative {@code system.events} counters (inserts, parts written, merges and
 * the rows and bytes they rewrote) read before and after, plus the samples table's active parts at the end: the
 * engine side of the sink's CPU per sample, to tell an insert-bound engine from a merge-bound one.
 */
final class EngineActivity {

    private static final List<String> EVENTS = List.of("InsertQuery", "InsertedRows", "InsertedBytes",
            "MergeTreeDataWriterBlocks", "MergeTreeDataWriterRows", "MergeTreeDataWriterCompressedBytes",
            "DuplicatedInsertedBlocks", "Merge", "MergedRows", "MergedUncompressedBytes", "MergeTotalMilliseconds",
            "MergesTimeMilliseconds", "MergeSourceParts");

    private final String jdbcUrl;
    private final String readToken;
    private final Map<String, Long> before;
    private final long startedAtSeconds = System.currentTimeMillis() / 1000;

    private EngineActivity(String jdbcUrl, String readToken, Map<String, Long> before) {
        this.jdbcUrl = jdbcUrl;
        this.readToken = readToken;
        this.before = before;
    }

    static EngineActivity start(String jdbcUrl, String readToken) throws SQLException {
        return new EngineActivity(jdbcUrl, readToken, events(jdbcUrl, readToken));
    }

    /**
     * The CPU of the pass's finished queries by kind (system.query_log, flushed every 7.5 s, so the last seconds
     * may be missing): which of the engine's thread time is the sink's inserts and which the readers' queries
     * (the bench's own watcher among them).
     */
    private void printQueries(Connection c, PrintStream out, long samples) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT query_kind, user, arrayStringConcat(tables, ','), count(),"
                     + " sum(ProfileEvents['UserTimeMicroseconds'] + ProfileEvents['SystemTimeMicroseconds']),"
                     + " sum(written_rows), sum(read_rows) FROM system.query_log WHERE type = 'QueryFinish'"
                     + " AND event_time >= toDateTime(" + startedAtSeconds + ") GROUP BY query_kind, user, tables"
                     + " ORDER BY 5 DESC LIMIT 12")) {
            while (rs.next()) {
                out.printf(Locale.ROOT, "  %s by %s on %s: %,d queries, CPU %.2f µs/sample, written %,d, read %,d rows%n",
                        rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4),
                        rs.getLong(5) / (double) samples, rs.getLong(6), rs.getLong(7));
            }
        } catch (SQLException e) {
            out.println("  (system.query_log not readable: " + e.getMessage() + ")");
        }
    }

    void print(PrintStream out, long samples) throws SQLException {
        Map<String, Long> after = events(jdbcUrl, readToken);
        out.println("chDB during the pass (system.events deltas):");
        for (String e : EVENTS) {
            long d = after.getOrDefault(e, 0L) - before.getOrDefault(e, 0L);
            out.printf(Locale.ROOT, "  %-36s %,15d  (%.3f per sample)%n", e, d, (double) d / samples);
        }
        try (Connection c = DriverManager.getConnection(jdbcUrl, HttpSettings.READER_USER, readToken)) {
            printQueries(c, out, samples);
        }
        try (Connection c = DriverManager.getConnection(jdbcUrl, HttpSettings.READER_USER, readToken);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT table, part_type, count(), sum(rows), max(level)"
                     + " FROM system.parts WHERE active AND table = 'samples' GROUP BY table, part_type")) {
            while (rs.next()) {
                out.printf(Locale.ROOT, "  active parts of %s: %s × %d, %,d rows, max level %d%n", rs.getString(1),
                        rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getLong(5));
            }
        }
    }

    private static Map<String, Long> events(String jdbcUrl, String readToken) throws SQLException {
        Map<String, Long> out = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection(jdbcUrl, HttpSettings.READER_USER, readToken);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT event, value FROM system.events")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getLong(2));
            }
        }
        return out;
    }
}
