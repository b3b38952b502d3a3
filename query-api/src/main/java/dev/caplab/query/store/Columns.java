package dev.caplab.query.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the column shapes caplab's tables use, the same way for every driver: nullable numbers via
 * {@code wasNull}, timestamps selected as epoch microseconds, maps selected through {@code toJSONString}.
 */
public final class Columns {

    private static final JsonMapper JSON = JsonMapper.builder()
            .disable(tools.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
    private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() { };
    private static final TypeReference<Map<String, Double>> DOUBLE_MAP = new TypeReference<>() { };

    private Columns() {
    }

    public static Double nullableDouble(ResultSet rs, String column) throws SQLException {
        double v = rs.getDouble(column);
        return rs.wasNull() ? null : v;
    }

    public static Long nullableLong(ResultSet rs, String column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }

    public static Integer nullableInt(ResultSet rs, String column) throws SQLException {
        int v = rs.getInt(column);
        return rs.wasNull() ? null : v;
    }

    /** A column selected as {@code toUnixTimestamp64Micro(...)}. */
    public static Instant micros(ResultSet rs, String column) throws SQLException {
        long us = rs.getLong(column);
        return rs.wasNull() ? null : Instant.ofEpochSecond(Math.floorDiv(us, 1_000_000L),
                Math.floorMod(us, 1_000_000L) * 1_000L);
    }

    public static Map<String, String> stringMap(ResultSet rs, String column) throws SQLException {
        return parse(rs.getString(column), STRING_MAP, column);
    }

    public static Map<String, Double> doubleMap(ResultSet rs, String column) throws SQLException {
        return parse(rs.getString(column), DOUBLE_MAP, column);
    }

    /** A JSON column (the store keeps nested Avro structures as JSON text) read into {@code type}. */
    public static <T> T json(String text, TypeReference<T> type, String column) {
        return parse(text, type, column);
    }

    private static <T> T parse(String text, TypeReference<T> type, String column) {
        try {
            return JSON.readValue(text == null || text.isBlank() ? "null" : text, type);
        } catch (JacksonException e) {
            throw new StoreDataException("column " + column + " holds JSON the API cannot read: "
                    + abbreviate(text), e);
        }
    }

    private static String abbreviate(String text) {
        return text == null || text.length() <= 200 ? String.valueOf(text) : text.substring(0, 200) + "…";
    }
}
