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
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setUsername(user == null ? "default" : user);
        config.setPassword(password == null ? "" : password);
        config.setPoolName("caplab-store");
        config.setMaximumPoolSize(4);
        config.setMinimumIdle(1);
        // Synchronous inserts: a dedup token and read-your-writes must not depend on a server default.
        config.addDataSourceProperty("clickhouse_setting_async_insert", "0");
        // Batched PreparedStatement inserts go as one RowBinary body instead of a VALUES text statement:
        // faster, and exact (the Values parser reads some doubles 1 ulp off, precise_float_parsing or not).
        config.addDataSourceProperty("beta.row_binary_for_simple_insert", "true");
        return new HikariDataSource(config);
    }
}
