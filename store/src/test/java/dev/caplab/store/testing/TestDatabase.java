package dev.caplab.store.testing;

import com.zaxxer.hikari.HikariDataSource;

import javax.sql.DataSource;

/**
 * A database of its own for one test class, migrations applied, with a pooled DataSource onto it.
 *
 * @param name    the database name, unique per test class
 * @param jdbcUrl a ClickHouse JDBC URL whose default database is {@code name}
 */
public record TestDatabase(String name, String jdbcUrl, HikariDataSource pool) {

    /** The pooled DataSource (HikariCP, store settings pinned). */
    public DataSource dataSource() {
        return pool;
    }
}
