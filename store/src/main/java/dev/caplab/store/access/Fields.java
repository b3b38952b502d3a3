package dev.caplab.store.access;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads consecutive columns of the current row with the Java type each column maps to. */
final class Fields {

    private final ResultSet rs;
    private int index;

    Fields(ResultSet rs) {
        this.rs = rs;
    }

    String string() throws SQLException {
        return rs.getString(++index);
    }

    int int32() throws SQLException {
        return rs.getInt(++index);
    }

    long int64() throws SQLException {
        return rs.getLong(++index);
    }

    double float64() throws SQLException {
        return rs.getDouble(++index);
    }

    boolean bool() throws SQLException {
        return rs.getBoolean(++index);
    }

    Instant instant() throws SQLException {
        return rs.getObject(++index, Instant.class);
    }

    Double nullableFloat64() throws SQLException {
        double v = rs.getDouble(++index);
        return rs.wasNull() ? null : v;
    }

    Long nullableInt64() throws SQLException {
        long v = rs.getLong(++index);
        return rs.wasNull() ? null : v;
    }

    Integer nullableInt32() throws SQLException {
        int v = rs.getInt(++index);
        return rs.wasNull() ? null : v;
    }

    Map<String, String> stringMap() throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        map().forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
        return out;
    }

    Map<String, Double> doubleMap() throws SQLException {
        Map<String, Double> out = new LinkedHashMap<>();
        map().forEach((k, v) -> out.put(String.valueOf(k), ((Number) v).doubleValue()));
        return out;
    }

    private Map<?, ?> map() throws SQLException {
        Object v = rs.getObject(++index);
        if (v == null) {
            return Map.of();
        }
        if (v instanceof Map<?, ?> m) {
            return m;
        }
        throw new SQLException("column " + rs.getMetaData().getColumnName(index) + " is not a Map but "
                + v.getClass().getName());
    }
}
