package dev.caplab.query;

import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the query API ({@code caplab.query.*}): which ClickHouse database holds caplab's tables and the limits of
 * the SQL endpoint. Who may read is {@code caplab.access.*}, shared with ingest.
 */
@ConfigurationProperties("caplab.query")
public record QueryApiProperties(String database, SqlLimits sql) {

    public static final String DEFAULT_DATABASE = "caplab";

    public QueryApiProperties {
        database = database == null || database.isBlank() ? DEFAULT_DATABASE : database;
        if (!database.matches("[A-Za-z_][A-Za-z0-9_]{0,63}")) {
            throw new IllegalArgumentException("caplab.query.database must be a plain identifier, was " + database);
        }
        sql = sql == null ? SqlLimits.defaults() : sql;
    }

    /**
     * Where the read-only SQL endpoint sends statements (ClickHouse's HTTP interface), the limits ClickHouse
     * enforces on each ({@code max_execution_time}, {@code max_result_rows}, {@code max_result_bytes},
     * {@code max_memory_usage}, {@code max_threads}) and how many statements the endpoint runs at once.
     */
    public record SqlLimits(URI clickhouseUrl, String user, String password, Duration maxExecutionTime,
                            Long maxResultRows, Long maxResultBytes, Long maxMemoryBytes,
                            Integer maxConcurrentQueries, Integer maxThreads) {

        public static final URI DEFAULT_URL = URI.create("http://127.0.0.1:8123/");
        public static final Duration DEFAULT_MAX_EXECUTION_TIME = Duration.ofSeconds(10);
        public static final long DEFAULT_MAX_RESULT_ROWS = 100_000;
        /** 64 MiB: a notebook's data frame, not a table dump. */
        public static final long DEFAULT_MAX_RESULT_BYTES = 64L * 1024 * 1024;
        /** 1 GiB per statement: room for a join over a run's samples, not for starving the ingest beside it. */
        public static final long DEFAULT_MAX_MEMORY_BYTES = 1024L * 1024 * 1024;
        /** Readers beyond this wait outside (503) instead of queueing on the engine the pipeline writes through. */
        public static final int DEFAULT_MAX_CONCURRENT_QUERIES = 4;
        /** Threads per statement: a reader's statement never takes every core from the pipeline beside it. */
        public static final int DEFAULT_MAX_THREADS = 1;

        public SqlLimits {
            clickhouseUrl = clickhouseUrl == null ? DEFAULT_URL : clickhouseUrl;
            user = user == null ? "" : user;
            password = password == null ? "" : password;
            maxExecutionTime = maxExecutionTime == null ? DEFAULT_MAX_EXECUTION_TIME : maxExecutionTime;
            if (maxExecutionTime.toSeconds() < 1) {
                throw new IllegalArgumentException("caplab.query.sql.max-execution-time must be at least 1s, was "
                        + maxExecutionTime);
            }
            maxResultRows = maxResultRows == null ? DEFAULT_MAX_RESULT_ROWS : maxResultRows;
            maxResultBytes = maxResultBytes == null ? DEFAULT_MAX_RESULT_BYTES : maxResultBytes;
            if (maxResultRows < 1 || maxResultBytes < 1) {
                throw new IllegalArgumentException("caplab.query.sql result limits must be >= 1, were rows="
                        + maxResultRows + " bytes=" + maxResultBytes);
            }
            maxMemoryBytes = maxMemoryBytes == null ? DEFAULT_MAX_MEMORY_BYTES : maxMemoryBytes;
            // 0 would mean "unlimited" to ClickHouse
            if (maxMemoryBytes < 1) {
                throw new IllegalArgumentException("caplab.query.sql.max-memory-bytes must be >= 1, was "
                        + maxMemoryBytes);
            }
            maxConcurrentQueries = maxConcurrentQueries == null ? DEFAULT_MAX_CONCURRENT_QUERIES
                    : maxConcurrentQueries;
            if (maxConcurrentQueries < 1) {
                throw new IllegalArgumentException("caplab.query.sql.max-concurrent-queries must be >= 1, was "
                        + maxConcurrentQueries);
            }
            maxThreads = maxThreads == null ? DEFAULT_MAX_THREADS : maxThreads;
            // 0 would mean "every core" to ClickHouse
            if (maxThreads < 1) {
                throw new IllegalArgumentException("caplab.query.sql.max-threads must be >= 1, was " + maxThreads);
            }
        }

        static SqlLimits defaults() {
            return new SqlLimits(null, null, null, null, null, null, null, null, null);
        }
    }
}
