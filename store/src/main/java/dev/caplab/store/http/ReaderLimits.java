package dev.caplab.store.http;

import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * What a caller outside caplab (a reader) may use of the embedded engine; caplab's own roles are not limited.
 *
 * @param maxExecutionSeconds engine-enforced time per query; a reader's own value is capped to it
 * @param maxMemoryBytes      engine-enforced memory per query ({@code max_memory_usage})
 * @param maxThreads          threads one reader query may use ({@code max_threads}); a reader's own value is capped
 * @param maxResultRows       result rows ({@code max_result_rows}, {@code result_overflow_mode=throw})
 * @param maxResultBytes      result size: the engine's {@code max_result_bytes} and the bytes of the formatted answer
 * @param maxStatementBytes   request body after decompression (a reader sends only a statement)
 * @param queuedQueries       reader queries waiting for their turn (readers share one engine connection, so one
 *                            runs at a time); more are answered 503 at once
 * @param queueWaitMillis     how long a reader query may wait for its turn before it is answered 503
 * @param databases           databases a reader may name or default to (never chDB's {@code default}, whose
 *                            overlay reads host files by path, nor {@code system}: of it readers see only
 *                            {@link #READABLE_SYSTEM_TABLES})
 * @param defaultDatabase     the database a reader request without {@code database} runs in
 */
public record ReaderLimits(int maxExecutionSeconds, long maxMemoryBytes, int maxThreads, long maxResultRows,
                           long maxResultBytes, int maxStatementBytes, int queuedQueries, long queueWaitMillis,
                           Set<String> databases, String defaultDatabase) {

    /** The SQL standard's metadata views (tables, columns, schemata): names and types, nothing of the host. */
    public static final Set<String> METADATA_DATABASES = Set.of("INFORMATION_SCHEMA", "information_schema");

    /**
     * The tables of {@code system} a reader may read: what the engine can compute (functions, types, time zones) and
     * the columns of tables. The others tell the host's disks and paths, other clients' queries, settings.
     */
    public static final Set<String> READABLE_SYSTEM_TABLES = Set.of("system.one", "system.functions",
            "system.aggregate_function_combinators", "system.columns", "system.data_type_families",
            "system.time_zones");

    public ReaderLimits {
        Objects.requireNonNull(defaultDatabase, "defaultDatabase");
        databases = Set.copyOf(databases);
        if (maxExecutionSeconds < 1 || maxMemoryBytes < 1 || maxThreads < 1 || maxResultRows < 1 || maxResultBytes < 1
                || maxStatementBytes < 1 || queuedQueries < 0 || queueWaitMillis < 0) {
            throw new IllegalArgumentException("reader limits must be positive: " + this);
        }
        if (!databases.contains(defaultDatabase)) {
            throw new IllegalArgumentException("the readers' default database " + defaultDatabase
                    + " is not among the databases they may read: " + databases);
        }
        if (databases.contains("default")) {
            throw new IllegalArgumentException("readers must never read chDB's 'default' database: it is an overlay"
                    + " that reads host files named as tables");
        }
        if (databases.contains("system")) {
            throw new IllegalArgumentException("readers must never read all of 'system': it tells the host's disks,"
                    + " paths and other clients' queries; they read " + READABLE_SYSTEM_TABLES);
        }
    }

    /**
     * 30 s, 2 GiB, one thread per query (readers run one at a time beside caplab's own work, which needs the other
     * cores), 10 million rows, 128 MiB of result, 1 MiB statements, 16 queries waiting up to 10 s; {@code database}
     * plus the metadata databases.
     */
    public static ReaderLimits defaults(String database) {
        Set<String> dbs = new HashSet<>(METADATA_DATABASES);
        dbs.add(database);
        return new ReaderLimits(30, 2L << 30, 1, 10_000_000, 128L << 20, 1 << 20, 16, 10_000, dbs, database);
    }

    /** Same limits with another time cap. */
    public ReaderLimits withMaxExecutionSeconds(int seconds) {
        return new ReaderLimits(seconds, maxMemoryBytes, maxThreads, maxResultRows, maxResultBytes, maxStatementBytes,
                queuedQueries, queueWaitMillis, databases, defaultDatabase);
    }

    /** Same limits with another result-size cap. */
    public ReaderLimits withMaxResultBytes(long bytes) {
        return new ReaderLimits(maxExecutionSeconds, maxMemoryBytes, maxThreads, maxResultRows, bytes, maxStatementBytes,
                queuedQueries, queueWaitMillis, databases, defaultDatabase);
    }

    /** Same limits with another queue: {@code queued} waiting at most {@code waitMillis}. */
    public ReaderLimits withQueue(int queued, long waitMillis) {
        return new ReaderLimits(maxExecutionSeconds, maxMemoryBytes, maxThreads, maxResultRows, maxResultBytes,
                maxStatementBytes, queued, waitMillis, databases, defaultDatabase);
    }

    /** Same limits with another thread cap. */
    public ReaderLimits withMaxThreads(int threads) {
        return new ReaderLimits(maxExecutionSeconds, maxMemoryBytes, threads, maxResultRows, maxResultBytes,
                maxStatementBytes, queuedQueries, queueWaitMillis, databases, defaultDatabase);
    }
}
