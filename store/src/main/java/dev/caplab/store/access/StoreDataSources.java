package dev.caplab.store.access;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import java.util.Objects;

/** Builds the pooled JDBC {@link javax.sql.DataSource} every store user shares, with insert semantics pinned. */
public final class StoreDataSources {

    private StoreDataSources() {
    }

    /** A HikariCP pool over the ClickHouse JDBC driver; close it when done. */
    public static HikariDataSource create(String jdbcUrl, String user, String password) {
        return new HikariDataSource(config(jdbcUrl, user, password, "caplab-store"));
    }

    /**
     * A pool for readers (the query API and web page): every statement runs with {@code readonly=2}, so it can change
     * its own settings but never write. On the embedded engine such statements also run on a read-only connection of
     * their own, so a page never waits for the sink's inserts on the read-write one.
     */
    public static HikariDataSource createReadOnly(String jdbcUrl, String user, String password) {
        HikariConfig config = config(jdbcUrl, user, password, "caplab-read");
        config.addDataSourceProperty("clickhouse_setting_readonly", "2");
        return new HikariDataSource(config);
    }

    private static HikariConfig config(String jdbcUrl, String user, String password, String poolName) {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(user == null ? "default" : user);
        config.setPassword(password == null ? "" : password);
        config.setPoolName(poolName);
        config.setMaximumPoolSize(4);
        config.setMinimumIdle(1);
        // Synchronous inserts: a dedup token and read-your-writes must not depend on a server default.
        config.addDataSourceProperty("clickhouse_setting_async_insert", "0");
        // Batched PreparedStatement inserts go as one RowBinary body instead of a VALUES text statement:
        // faster, and exact (the Values parser reads some doubles 1 ulp off, precise_float_parsing or not).
        config.addDataSourceProperty("beta.row_binary_for_simple_insert", "true");
        return config;
    }
}
