package dev.caplab.query.sql;

import java.util.Map;

/**
 * One read-only statement: the SQL, the result format (json, csv, arrow) and values for ClickHouse query
 * parameters written {@code {name:Type}} in the SQL, which ClickHouse binds itself.
 */
public record SqlRequest(String sql, String format, Map<String, String> params) {

    public SqlRequest {
        params = params == null ? Map.of() : Map.copyOf(params);
    }
}
