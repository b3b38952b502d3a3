package dev.caplab.store.access;

import dev.caplab.schema.serde.AvroJson;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * The columns, writer and reader of a stored type, derived from its parts in order ({@link StoredShape}): an Avro
 * record of the schema (its fields, stored as {@link AvroStorage} says) or a Java record of the store (its components,
 * stored as {@code dev.caplab.store.row}'s annotations say). Each part is the column named after it in snake_case
 * ({@code breakpointPValue} is {@code breakpoint_p_value}) unless told otherwise, bound as the value holds it and read
 * back by its Java type. A list of records is an {@code Array(Tuple(...))} column, each tuple an {@code Object[]} of
 * the record's stored parts in order (a record inside a tuple is a tuple again); a flattened record is columns of the
 * row's own table; an enum is its name; a part not stored has no column. A type the store has no column for fails
 * here, when the codec is made, naming the record and the part.
 *
 * <p>A Java record's components are read and the record made through its {@link RecordShape}, spun once per record
 * type; an Avro record's through its generated {@code get(i)} and {@code put(i, v)}.
 */
final class RecordCodec<R> {

    private final Class<R> type;
    private final List<StoredColumn> columns;
    private final StoredShape shape;
    /** Per part: null to bind its value as it is, else how to bind it (none, a tuple list, a flattened value). */
    private final ValueBinder[] binders;
    private final PartReader[] readers;

    private RecordCodec(Class<R> type, AvroStorage storage, String path, String prefix, int firstIndex) {
        this.type = type;
        this.shape = StoredShape.of(type, storage, path);
        List<StoredShape.Part> parts = shape.parts();
        List<StoredColumn> stored = new ArrayList<>();
        this.binders = new ValueBinder[parts.size()];
        this.readers = new PartReader[parts.size()];
        for (int i = 0; i < parts.size(); i++) {
            StoredShape.Part part = parts.get(i);
            String at = path.isEmpty() ? part.name() : path + "." + part.name();
            part(part, shape.name() + "." + part.name(), storage, at, prefix, firstIndex + stored.size(), stored, i);
        }
        this.columns = List.copyOf(stored);
    }

    /** The codec of {@code type}'s rows, a Java record's or an Avro record's stored as its names say. */
    static <R> RecordCodec<R> of(Class<R> type) {
        return of(type, AvroStorage.asNamed());
    }

    /** The codec of an Avro record's rows stored as {@code storage} says, their columns read from the first on. */
    static <R> RecordCodec<R> of(Class<R> type, AvroStorage storage) {
        return new RecordCodec<>(type, storage, "", "", 1);
    }

    /** The stored columns in the order they are written and read. */
    List<StoredColumn> storedColumns() {
        return columns;
    }

    /** The column names in the order they are written and read. */
    List<String> columns() {
        return columns.stream().map(StoredColumn::name).toList();
    }

    /** Binds one row's values in column order. */
    void write(Params params, R row) throws SQLException {
        bind(params, row);
    }

    /** The row at the result set's cursor, its columns in {@link #columns()} order. */
    R read(ResultSet rs) throws SQLException {
        return type.cast(construct(rs));
    }

    private void bind(Params params, Object row) throws SQLException {
        Object[] values = shape.values(row);
        for (int i = 0; i < values.length; i++) {
            ValueBinder binder = binders[i];
            if (binder == null) {
                params.add(values[i]);
            } else {
                binder.bind(params, values[i]);
            }
        }
    }

    private Object construct(ResultSet rs) throws SQLException {
        Object[] args = new Object[readers.length];
        for (int i = 0; i < args.length; i++) {
            args[i] = readers[i].read(rs);
        }
        return shape.make(args);
    }

    /**
     * A column as the codec stores it: its name, the Java type of the part (of the flattened value's part for a
     * flattened one), whether it is NULL when a flattened value is absent, and for a record or a list of them the
     * tuple's elements in order (else empty).
     */
    record StoredColumn(String name, Type javaType, boolean nullWhenAbsent, List<StoredColumn> tuple) {

        StoredColumn(String name, Type javaType, boolean nullWhenAbsent) {
            this(name, javaType, nullWhenAbsent, List.of());
        }
    }

    /** {@code breakpointPValue} as {@code breakpoint_p_value}: an underscore before each capital, all lower case. */
    static String snakeCase(String name) {
        StringBuilder out = new StringBuilder(name.length() + 8);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isUpperCase(c)) {
                out.append('_').append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Binds one component's value (none, one or several columns). */
    @FunctionalInterface
    private interface ValueBinder {
        void bind(Params params, Object value) throws SQLException;
    }

    /** Reads one component's value from its columns of the current row. */
    @FunctionalInterface
    private interface PartReader {
        Object read(ResultSet rs) throws SQLException;
    }

    /** Reads one column of the current row. */
    @FunctionalInterface
    private interface ColumnReader {
        Object read(ResultSet rs, int index) throws SQLException;
    }

    /** Converts one value between a component's Java value and what the driver binds or returns. */
    @FunctionalInterface
    private interface Conversion {
        Object apply(Object value);
    }

    /** Sets part {@code i}'s binder and reader, adding its columns to {@code stored}. */
    private void part(StoredShape.Part part, String where, AvroStorage storage, String path, String prefix, int index,
                      List<StoredColumn> stored, int i) {
        Class<?> raw = raw(part.type());
        if (part.notStored()) {
            Object absent = raw.isPrimitive() ? zero(raw) : null;
            binders[i] = (params, value) -> {
            };
            readers[i] = rs -> absent;
            return;
        }
        if (part.flattenedPrefix() != null) {
            flattenedPart(raw, where, storage, path, prefix + part.flattenedPrefix(), index, stored, i);
            return;
        }
        String name = part.columnFixed() || prefix.isEmpty() ? part.column() : prefix + part.column();
        if (part.json()) {
            stored.add(new StoredColumn(name, String.class, !prefix.isEmpty()));
            jsonPart(part.type(), where, index, i);
            return;
        }
        Class<?> element = raw == List.class ? raw(typeArgument(part.type(), 0)) : raw;
        stored.add(new StoredColumn(name, part.type(), !prefix.isEmpty(), StoredShape.structured(element)
                ? TupleCodec.of(element, storage, path).elements() : List.of()));
        Conversion encode = columnEncoding(part.type(), storage, path);
        if (encode != null) {
            binders[i] = (params, value) -> params.add(value == null ? null : encode.apply(value));
        }
        ColumnReader reader = columnReader(part.type(), where, storage, path);
        readers[i] = rs -> reader.read(rs, index);
    }

    private void flattenedPart(Class<?> valueType, String where, AvroStorage storage, String path, String prefix,
                               int index, List<StoredColumn> stored, int i) {
        if (!StoredShape.structured(valueType)) {
            throw new IllegalArgumentException(where + ": " + valueType.getName() + " as a flattened value must be a"
                    + " record");
        }
        RecordCodec<?> value = new RecordCodec<>(valueType, storage, path, prefix, index);
        List<StoredShape.Part> inner = value.shape.parts();
        if (inner.isEmpty() || !neverNull(valueType, inner.getFirst())) {
            throw new IllegalArgumentException(where + ": a flattened value's first part must never be null, so its"
                    + " NULL column says the value is absent; " + valueType.getSimpleName() + " starts with "
                    + (inner.isEmpty() ? "nothing" : inner.getFirst().type().getTypeName()));
        }
        stored.addAll(value.columns);
        int width = value.columns.size();
        binders[i] = (params, v) -> {
            if (v == null) {
                for (int c = 0; c < width; c++) {
                    params.add(null);
                }
            } else {
                value.bind(params, v);
            }
        };
        readers[i] = rs -> rs.getObject(index) == null ? null : value.construct(rs);
    }

    /** A primitive component, or an Avro field whose schema has no null. */
    private static boolean neverNull(Class<?> type, StoredShape.Part first) {
        if (raw(first.type()).isPrimitive()) {
            return true;
        }
        return SpecificRecordBase.class.isAssignableFrom(type)
                && !SpecificData.get().getSchema(type).getField(first.name()).schema().isNullable();
    }

    /** A list of Avro records kept as their JSON array in one text column. */
    private void jsonPart(Type type, String where, int index, int i) {
        Class<?> element = raw(typeArgument(type, 0));
        if (raw(type) != List.class || !SpecificRecordBase.class.isAssignableFrom(element)) {
            throw new IllegalArgumentException(where + ": only a list of Avro records is stored as JSON, not "
                    + type.getTypeName());
        }
        Schema items = SpecificData.get().getSchema(element);
        binders[i] = (params, value) -> params.add(AvroJson.encodeArray(
                value == null ? List.of() : castList(value), items));
        readers[i] = rs -> {
            String json = rs.getString(index);
            return json == null ? new ArrayList<>() : new ArrayList<>(AvroJson.decodeArray(json, items));
        };
    }

    @SuppressWarnings("unchecked")
    private static List<SpecificRecordBase> castList(Object value) {
        return (List<SpecificRecordBase>) value;
    }

    /**
     * How a part's value is bound: a list of records as a list of tuples, an enum as its name, anything else as it is
     * (null).
     */
    private static Conversion columnEncoding(Type type, AvroStorage storage, String path) {
        if (raw(type) == List.class && StoredShape.structured(raw(typeArgument(type, 0)))) {
            TupleCodec tuple = TupleCodec.of(raw(typeArgument(type, 0)), storage, path);
            return v -> {
                List<?> values = (List<?>) v;
                Object[] tuples = new Object[values.size()];
                for (int i = 0; i < tuples.length; i++) {
                    tuples[i] = tuple.encode(values.get(i));
                }
                return Arrays.asList(tuples);
            };
        }
        if (raw(type).isEnum()) {
            return v -> ((Enum<?>) v).name();
        }
        return null;
    }

    private static ColumnReader columnReader(Type type, String where, AvroStorage storage, String path) {
        Class<?> raw = raw(type);
        if (raw == String.class) {
            return ResultSet::getString;
        }
        if (raw.isEnum()) {
            return (rs, i) -> {
                String name = rs.getString(i);
                return name == null ? null : enumValue(raw, name);
            };
        }
        if (raw == int.class) {
            return ResultSet::getInt;
        }
        if (raw == long.class) {
            return ResultSet::getLong;
        }
        if (raw == double.class) {
            return ResultSet::getDouble;
        }
        if (raw == boolean.class) {
            return ResultSet::getBoolean;
        }
        if (raw == Integer.class) {
            return orNull(ResultSet::getInt);
        }
        if (raw == Long.class) {
            return orNull(ResultSet::getLong);
        }
        if (raw == Double.class) {
            return orNull(ResultSet::getDouble);
        }
        if (raw == Boolean.class) {
            return orNull(ResultSet::getBoolean);
        }
        if (raw == Instant.class) {
            return (rs, i) -> rs.getObject(i, Instant.class);
        }
        if (raw == Map.class && raw(typeArgument(type, 0)) == String.class) {
            Class<?> values = raw(typeArgument(type, 1));
            if (values == String.class) {
                return (rs, i) -> stringMap(map(rs, i));
            }
            if (values == Double.class) {
                return (rs, i) -> doubleMap(map(rs, i));
            }
        }
        if (raw == List.class) {
            Type element = typeArgument(type, 0);
            if (raw(element) == Map.class && raw(typeArgument(element, 0)) == String.class
                    && raw(typeArgument(element, 1)) == Double.class) {
                return (rs, i) -> {
                    List<Map<String, Double>> out = new ArrayList<>();
                    for (Object m : array(rs, i)) {
                        out.add(doubleMap((Map<?, ?>) m));
                    }
                    return out;
                };
            }
            if (StoredShape.structured(raw(element))) {
                TupleCodec tuple = TupleCodec.of(raw(element), storage, path);
                return (rs, i) -> {
                    List<Object> out = new ArrayList<>();
                    for (Object t : array(rs, i)) {
                        out.add(tuple.decode((Object[]) t));
                    }
                    return out;
                };
            }
        }
        throw unsupported(where, type, "a column");
    }

    /** A nullable column's reader: the primitive reader's value, or null when the column was NULL. */
    private static ColumnReader orNull(ColumnReader primitive) {
        return (rs, i) -> {
            Object v = primitive.read(rs, i);
            return rs.wasNull() ? null : v;
        };
    }

    /**
     * A record stored as a ClickHouse {@code Tuple}: an {@code Object[]} of its stored parts in order, a record among
     * them a tuple again ({@code plain} when none is and every part is stored). {@code stored} holds the part behind
     * each tuple element.
     */
    private record TupleCodec(StoredShape shape, int[] stored, TupleCodec[] nested, Conversion[] encodings,
                              Conversion[] decodings, boolean plain) {

        static TupleCodec of(Class<?> type, AvroStorage storage, String path) {
            StoredShape shape = StoredShape.of(type, storage, path);
            List<StoredShape.Part> parts = shape.parts();
            Conversion[] encodings = new Conversion[parts.size()];
            Conversion[] decodings = new Conversion[parts.size()];
            TupleCodec[] nestedCodecs = new TupleCodec[parts.size()];
            List<Integer> stored = new ArrayList<>();
            for (int i = 0; i < parts.size(); i++) {
                StoredShape.Part c = parts.get(i);
                String where = shape.name() + "." + c.name();
                if (c.flattenedPrefix() != null || c.json()) {
                    throw new IllegalArgumentException(where + ": a tuple element is stored as itself");
                }
                if (c.notStored()) {
                    continue;
                }
                stored.add(i);
                Class<?> raw = raw(c.type());
                if (StoredShape.structured(raw)) {
                    TupleCodec nested = of(raw, storage, path + "." + c.name());
                    nestedCodecs[i] = nested;
                    encodings[i] = nested::encode;
                    decodings[i] = v -> nested.decode((Object[]) v);
                } else if (raw.isEnum()) {
                    encodings[i] = v -> ((Enum<?>) v).name();
                    decodings[i] = v -> enumValue(raw, v.toString());
                } else {
                    decodings[i] = tupleElement(raw, where);
                }
            }
            int[] storedParts = stored.stream().mapToInt(Integer::intValue).toArray();
            return new TupleCodec(shape, storedParts, nestedCodecs, encodings, decodings,
                    storedParts.length == parts.size() && Arrays.stream(encodings).allMatch(java.util.Objects::isNull));
        }

        /** The tuple's elements: each stored part's name and type, a record's its own elements again. */
        List<StoredColumn> elements() {
            List<StoredColumn> out = new ArrayList<>();
            for (int i : stored) {
                StoredShape.Part part = shape.parts().get(i);
                Class<?> raw = raw(part.type());
                out.add(new StoredColumn(part.column(), part.type(), false, StoredShape.structured(raw)
                        ? nested[i].elements() : List.of()));
            }
            return out;
        }

        Object[] encode(Object value) {
            Object[] values = shape.values(value);
            if (plain) {
                return values;
            }
            Object[] out = new Object[stored.length];
            for (int e = 0; e < out.length; e++) {
                int i = stored[e];
                out[e] = encodings[i] != null && values[i] != null ? encodings[i].apply(values[i]) : values[i];
            }
            return out;
        }

        Object decode(Object[] tuple) {
            Object[] args = new Object[decodings.length];
            for (int e = 0; e < stored.length; e++) {
                int i = stored[e];
                args[i] = tuple[e] == null ? null : decodings[i].apply(tuple[e]);
            }
            return shape.make(args);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumValue(Class<?> type, String name) {
        return Enum.valueOf((Class) type, name);
    }

    /** How a tuple element the driver returns becomes the component's value (never given null). */
    private static Conversion tupleElement(Class<?> type, String where) {
        if (type == String.class || type == boolean.class || type == Boolean.class) {
            return v -> v;
        }
        if (type == double.class || type == Double.class) {
            return v -> ((Number) v).doubleValue();
        }
        if (type == int.class || type == Integer.class) {
            return v -> ((Number) v).intValue();
        }
        if (type == long.class || type == Long.class) {
            return v -> ((Number) v).longValue();
        }
        throw unsupported(where, type, "a tuple element");
    }

    private static IllegalArgumentException unsupported(String where, Type type, String as) {
        return new IllegalArgumentException(where + ": " + type.getTypeName() + " has no stored form as " + as
                + " (supported: String, int, long, double, boolean and their boxes, Instant, Map<String, String>,"
                + " Map<String, Double>, List<Map<String, Double>>, a list of records as tuples; mark a component"
                + " the table does not store @NotStored, or an Avro field AvroStorage.notStored)");
    }

    private static Map<String, String> stringMap(Map<?, ?> m) {
        Map<String, String> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
        return out;
    }

    private static Map<String, Double> doubleMap(Map<?, ?> m) {
        Map<String, Double> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(String.valueOf(k), ((Number) v).doubleValue()));
        return out;
    }

    private static Object[] array(ResultSet rs, int index) throws SQLException {
        Object v = rs.getObject(index);
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

    private static Map<?, ?> map(ResultSet rs, int index) throws SQLException {
        Object v = rs.getObject(index);
        if (v == null) {
            return Map.of();
        }
        if (v instanceof Map<?, ?> m) {
            return m;
        }
        throw new SQLException("column " + rs.getMetaData().getColumnName(index) + " is not a Map but "
                + v.getClass().getName());
    }

    private static Object zero(Class<?> primitive) {
        try {
            return MethodHandles.zero(primitive).invoke();
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private static Class<?> raw(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        return Object.class;
    }

    private static Type typeArgument(Type type, int i) {
        return type instanceof ParameterizedType p ? p.getActualTypeArguments()[i] : Object.class;
    }
}
