package dev.caplab.store.http;

import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * What a caller outside caplab (a reader) may use of the embedded engine; caplab's own roles are not limited.
 *
 * @param maxExecutionSeconds engine-enforced time per query; a reader's own value is capped to it
 * @param maxMemoryBytes      engine-enforced memory per query ({@code max_memory_usage})
 * @param maxResultRows       result rows ({@code max_result_rows}, {@code result_overflow_mode=throw})
 * @param maxResultBytes      result size: the engine's {@code max_result_bytes} and the bytes of the formatted answer
 * @param maxStatementBytes   request body after decompression (a reader sends only a statement)
 * @param queuedQueries       reader queries waiting for their turn (readers share one engine connection, so one
 *                            runs at a time); more are answered 503 at once
 * @param queueWaitMillis     how long a reader query may wait for its turn before it is answered 503
 * @param databases           databases a reader may name or default to (never chDB's {@code default}, whose
 *                            overlay reads host files by path)
 * @param defaultDatabase     the database a reader request without {@code database} runs in
 */
public record ReaderLimits(int maxExecutionSeconds, long maxMemoryBytes, long maxResultRows, long maxResultBytes,
                           int maxStatementBytes, int queuedQueries, long queueWaitMillis,
                           Set<String> databases, String defaultDatabase) {

    /** Databases every ClickHouse client reads metadata from; in-memory, holding nothing from the host. */
    public static final Set<String> METADATA_DATABASES = Set.of("system", "INFORMATION_SCHEMA", "information_schema");

    public ReaderLimits {
        Objects.requireNonNull(defaultDatabase, "defaultDatabase");
        databases = Set.copyOf(databases);
        if (maxExecutionSeconds < 1 || maxMemoryBytes < 1 || maxResultRows < 1 || maxResultBytes < 1
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
    }

    /**
     * 30 s, 2 GiB, 10 million rows, 128 MiB of result, 1 MiB statements, 16 queries waiting up to
     * 10 s; {@code database} plus the metadata databases.
     */
    public static ReaderLimits defaults(String database) {
        Set<String> dbs = new HashSet<>(METADATA_DATABASES);
        dbs.add(database);
        return new ReaderLimits(30, 2L << 30, 10_000_000, 128L << 20, 1 << 20, 16, 10_000, dbs, database);
    }

    /** Same limits with another time cap. */
    public ReaderLimits withMaxExecutionSeconds(int seconds) {
        return new ReaderLimits(seconds, maxMemoryBytes, maxResultRows, maxResultBytes, maxStatementBytes,
                queuedQueries, queueWaitMillis, databases, defaultDatabase);
    }

    /** Same limits with another result-size cap. */
    public ReaderLimits withMaxResultBytes(long bytes) {
        return new ReaderLimits(maxExecutionSeconds, maxMemoryBytes, maxResultRows, bytes, maxStatementBytes,
                queuedQueries, queueWaitMillis, databases, defaultDatabase);
    }

    /** Same limits with another queue: {@code queued} waiting at most {@code waitMillis}. */
    public ReaderLimits withQueue(int queued, long waitMillis) {
        return new ReaderLimits(maxExecutionSeconds, maxMemoryBytes, maxResultRows, maxResultBytes,
                maxStatementBytes, queued, waitMillis, databases, defaultDatabase);
    }
}
