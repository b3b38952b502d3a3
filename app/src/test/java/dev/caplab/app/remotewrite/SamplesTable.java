package dev.caplab.app.remotewrite;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** Rows of ClickHouse's {@code samples} table, read over JDBC as any client would, polled until they arrived. */
final class SamplesTable {

    private final String jdbcUrl;

    SamplesTable(String jdbcUrl) {
        this.jdbcUrl = jdbcUrl;
    }

    /** Rows of {@code sql} (column label → value), re-read until {@code done} holds or {@code timeout} passed. */
    List<Map<String, Object>> await(String sql, Predicate<List<Map<String, Object>>> done, Duration timeout)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Map<String, Object>> rows = query(sql);
        while (!done.test(rows) && System.nanoTime() < deadline) {
            Thread.sleep(500);
            rows = query(sql);
        }
        return rows;
    }

    List<Map<String, Object>> query(String sql) throws Exception {
        List<Map<String, Object>> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(jdbcUrl, "default", "");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData meta = rs.getMetaData();
            while (rs.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    row.put(meta.getColumnLabel(i), rs.getObject(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
