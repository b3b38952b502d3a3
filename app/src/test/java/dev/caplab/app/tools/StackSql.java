package dev.caplab.app.tools;

import dev.caplab.app.up.EmbeddedStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** Reads what arrived in the embedded stack's ClickHouse, and waits for the pipeline to get there. */
final class StackSql {

    private final EmbeddedStack stack;

    StackSql(EmbeddedStack stack) {
        this.stack = stack;
    }

    List<Map<String, Object>> rows(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(stack.clickhouseJdbcUrl(), "default", "");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData meta = rs.getMetaData();
            List<Map<String, Object>> rows = new ArrayList<>();
            while (rs.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    row.put(meta.getColumnLabel(i), rs.getObject(i));
                }
                rows.add(row);
            }
            return rows;
        }
    }

    long count(String sql) throws SQLException {
        return ((Number) rows(sql).getFirst().values().iterator().next()).longValue();
    }

    /** Runs {@code sql} until its rows satisfy {@code ready}; fails with the last rows after {@code timeout}. */
    List<Map<String, Object>> await(String sql, Predicate<List<Map<String, Object>>> ready, Duration timeout)
            throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Map<String, Object>> rows = rows(sql);
        while (!ready.test(rows)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not ready within " + timeout + ": " + sql + "\nlast rows: " + rows);
            }
            Thread.sleep(500);
            rows = rows(sql);
        }
        return rows;
    }
}
