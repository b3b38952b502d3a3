package dev.caplab.store.access;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

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

    /** An {@code Array(Tuple(...))} column, each tuple an {@code Object[]} in declared order. */
    <T> List<T> tuples(Function<Object[], T> decode) throws SQLException {
        List<T> out = new ArrayList<>();
        for (Object element : array()) {
            out.add(decode.apply((Object[]) element));
        }
        return out;
    }

    /** An {@code Array(Map(String, Float64))} column. */
    List<Map<String, Double>> doubleMaps() throws SQLException {
        List<Map<String, Double>> out = new ArrayList<>();
        for (Object element : array()) {
            Map<String, Double> m = new LinkedHashMap<>();
            ((Map<?, ?>) element).forEach((k, v) -> m.put(String.valueOf(k), ((Number) v).doubleValue()));
            out.add(m);
        }
        return out;
    }

    private Object[] array() throws SQLException {
        Object v = rs.getObject(++index);
        if (v == null) {
            return new Object[0];
        }
        if (v instanceof java.sql.Array a) {
            return (Object[]) a.getArray();
        }
        if (v instanceof Object[] a) {
            return a;
        }
        if (v instanceof List<?> l) {
            return l.toArray();
        }
        throw new SQLException("column " + rs.getMetaData().getColumnName(index) + " is not an Array but "
                + v.getClass().getName());
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
