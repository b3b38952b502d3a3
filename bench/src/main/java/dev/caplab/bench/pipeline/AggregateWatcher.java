package dev.caplab.bench.pipeline;

import dev.caplab.app.cli.ClickHouseTarget;
import dev.caplab.store.schema.Table;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Polls ClickHouse the way a dashboard would: when each step's aggregate rows last changed (so "queryable" means
 * complete, not first row), how many raw samples are stored, and the JVM's used heap, direct buffers and resident
 * memory at each poll (the whole embedded stack runs in this JVM, so their peaks are the pipeline's).
 */
final class AggregateWatcher implements AutoCloseable {

    /** A step's aggregate rows as last seen, and when (System.nanoTime) their count last changed. */
    record StepSeen(long rows, long changedNanos) {
    }

    private final Connection connection;
    private final String runPrefix;
    private final Map<String, StepSeen> steps = new ConcurrentHashMap<>();
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final MemoryPeaks offHeap = new MemoryPeaks();
    private final Thread thread;
    private volatile long storedSamples;
    private volatile long peakHeapBytes;
    private volatile long peakHeapAfterGcBytes;
    private volatile SQLException failure;
    private volatile boolean stopped;
    /** Rows of sample_points' active parts when watching began: what earlier passes stored. */
    private final long pointsBefore;

    private AggregateWatcher(Connection connection, String runPrefix, long pollMillis) throws SQLException {
        this.connection = connection;
        this.runPrefix = runPrefix;
        this.pointsBefore = activePointRows();
        this.thread = Thread.ofPlatform().daemon().name("aggregate-watcher").start(() -> loop(pollMillis));
    }

    /** Watches with caplab's own login: readers may not read {@code system.parts}. */
    static AggregateWatcher start(ClickHouseTarget clickhouse, String runPrefix, long pollMillis)
            throws SQLException {
        return new AggregateWatcher(connect(clickhouse), runPrefix, pollMillis);
    }

    /** A connection as caplab's own login ({@code EmbeddedStack.internalClickhouse()}). */
    static Connection connect(ClickHouseTarget clickhouse) throws SQLException {
        return DriverManager.getConnection(clickhouse.jdbcUrl(), clickhouse.user(), clickhouse.password());
    }

    private void loop(long pollMillis) {
        while (!stopped) {
            try {
                poll();
                Thread.sleep(pollMillis);
            } catch (SQLException e) {
                failure = e;
                return;
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized void poll() throws SQLException {
        sampleHeap();
        long now = System.nanoTime();
        // One query per poll, the stored samples as one more row (step -1): each query costs the measured stack a
        // few ms of chDB's CPU whatever it reads, and two per poll were ~0.4 µs of its ~7.5 µs per sample.
        // Stored raw samples come from the parts' metadata: a part's rows count from the moment it is committed,
        // when queries see them too. Counting the rows themselves (startsWith(run_id, ...)) read every run id stored
        // so far, a cost that grew with the rows and was billed to the stack measured, so it ran once a second and
        // saw the pass's last insert up to a second late. Earlier passes are done before a watcher starts
        // (pointsBefore); exactStoredSamples() counts the rows once the pass looks complete.
        try (PreparedStatement poll = connection.prepareStatement("SELECT run_id, step_index, count()"
                + " FROM " + Table.STEP_AGGREGATES.sqlName() + " WHERE startsWith(run_id, ?) GROUP BY run_id, step_index"
                + " UNION ALL SELECT '', " + STORED_SAMPLES_ROW + ", " + ACTIVE_POINT_ROWS)) {
            poll.setString(1, runPrefix);
            poll.setString(2, Table.SAMPLE_POINTS.sqlName());
            try (ResultSet rs = poll.executeQuery()) {
                while (rs.next()) {
                    long rows = rs.getLong(3);
                    if (rs.getInt(2) == STORED_SAMPLES_ROW) {
                        storedSamples = rows - pointsBefore;
                    } else {
                        steps.compute(rs.getString(1) + "#" + rs.getInt(2), (k, old) ->
                                old != null && old.rows() == rows ? old : new StepSeen(rows, now));
                    }
                }
            }
        }
    }

    /** The step index of the poll's row that counts sample_points' active rows (steps count from 0). */
    private static final int STORED_SAMPLES_ROW = -1;

    // Used heap includes garbage the collector has not yet needed to reclaim (G1 grows to the maximum before it
    // does), so the heap left after each collection is sampled too: its peak bounds what the stack really holds.
    private void sampleHeap() {
        peakHeapBytes = Math.max(peakHeapBytes, memory.getHeapMemoryUsage().getUsed());
        long afterGc = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
                afterGc += pool.getCollectionUsage().getUsed();
            }
        }
        peakHeapAfterGcBytes = Math.max(peakHeapAfterGcBytes, afterGc);
        offHeap.sample();
    }

    /** The step as last seen, or null when none of its aggregate rows is queryable yet. */
    StepSeen step(String runId, int index) {
        return steps.get(runId + "#" + index);
    }

    int stepsSeen() {
        return steps.size();
    }

    /** Raw samples stored since watching began, from the parts' metadata (as of the last poll). */
    long storedSamples() {
        return storedSamples;
    }

    /** The raw samples of the watched runs, counted row by row: the check of {@link #storedSamples()}. */
    synchronized long exactStoredSamples() throws SQLException {
        return count("SELECT count() FROM " + Table.SAMPLE_POINTS.sqlName() + " WHERE startsWith(run_id, ?)",
                runPrefix);
    }

    /** The rows of sample_points' active parts, the table's name bound as the query's last parameter. */
    private static final String ACTIVE_POINT_ROWS =
            "sum(rows) FROM system.parts WHERE database = currentDatabase() AND table = ? AND active";

    private long activePointRows() throws SQLException {
        return count("SELECT " + ACTIVE_POINT_ROWS, Table.SAMPLE_POINTS.sqlName());
    }

    /** The one number {@code sql} answers with {@code parameter} bound. */
    private long count(String sql, String parameter) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, parameter);
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    long peakHeapBytes() {
        return peakHeapBytes;
    }

    long peakHeapAfterGcBytes() {
        return peakHeapAfterGcBytes;
    }

    /** Direct buffers' and resident memory's peaks over the watch. */
    MemoryPeaks.Figures offHeapPeaks() {
        return offHeap.figures();
    }

    /** The poll's failure, rethrown, so a broken watcher does not look like a slow pipeline. */
    void check() throws SQLException {
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void close() throws SQLException {
        stopped = true;
        thread.interrupt();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        connection.close();
    }
}
