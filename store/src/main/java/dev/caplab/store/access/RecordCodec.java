package dev.caplab.store.access;

import dev.caplab.store.row.Column;
import dev.caplab.store.row.Flattened;
import dev.caplab.store.row.NotStored;

import java.lang.invoke.MethodHandles;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The columns, writer and reader of a row record, derived from its components in declared order: each component is
 * the column named after it in snake_case ({@code breakpointPValue} is {@code breakpoint_p_value}) or as its
 * {@link Column} says, bound as its accessor returns it and read back by its Java type into the canonical
 * constructor. A list of records is an {@code Array(Tuple(...))} column, each tuple an {@code Object[]} of the
 * record's components in order (a record inside a tuple is a tuple again); a {@link Flattened} record is columns of
 * the row's own table; a {@link NotStored} component has none. A type the store has no column for fails here, when
 * the codec is made, naming the record and the component.
 *
 * <p>Components are read and the record made through its {@link RecordShape}, spun once per record type: a row costs
 * what the hand-written codec cost, one accessor call per column to write (a plain column bound as it is, with no
 * call through an interface) and one result-set read per column to read.
 */
final class RecordCodec<R extends Record> {

    private final Class<R> type;
    private final List<StoredColumn> columns;
    private final RecordShape shape;
    /** Per component: null to bind its value as it is, else how to bind it (none, a tuple list, a flattened value). */
    private final ValueBinder[] binders;
    private final PartReader[] readers;

    private RecordCodec(Class<R> type, String prefix, int firstIndex) {
        this.type = type;
        RecordComponent[] components = components(type);
        List<StoredColumn> stored = new ArrayList<>();
        this.binders = new ValueBinder[components.length];
        this.readers = new PartReader[components.length];
        for (int i = 0; i < components.length; i++) {
            part(components[i], prefix, firstIndex + stored.size(), stored, i);
        }
        this.columns = List.copyOf(stored);
        this.shape = RecordShape.of(type);
    }

    /** The codec of {@code type}'s rows, their columns read from the first of a result set's row on. */
    static <R extends Record> RecordCodec<R> of(Class<R> type) {
        return new RecordCodec<>(type, "", 1);
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

    private void bind(Params params, Record row) throws SQLException {
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

    private Record construct(ResultSet rs) throws SQLException {
        Object[] args = new Object[readers.length];
        for (int i = 0; i < args.length; i++) {
            args[i] = readers[i].read(rs);
        }
        return shape.make(args);
    }

    /**
     * A column as the codec stores it: its name, the Java type of the component (of the flattened value's
     * component for a {@link Flattened} one), and whether it is NULL when a flattened value is absent.
     */
    record StoredColumn(String name, Type javaType, boolean nullWhenAbsent) {
    }

    /** The name a component is stored under, as a column or a tuple element: its {@link Column} or snake_case. */
    static String storedName(RecordComponent component) {
        Column column = component.getAnnotation(Column.class);
        return column != null ? column.value() : snakeCase(component.getName());
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

    /** Sets component {@code i}'s binder and reader, adding its columns to {@code stored}. */
    private void part(RecordComponent component, String prefix, int index, List<StoredColumn> stored, int i) {
        String where = component.getDeclaringRecord().getSimpleName() + "." + component.getName();
        Class<?> raw = component.getType();
        if (component.isAnnotationPresent(NotStored.class)) {
            Object absent = raw.isPrimitive() ? zero(raw) : null;
            binders[i] = (params, value) -> {
            };
            readers[i] = rs -> absent;
            return;
        }
        Flattened flattened = component.getAnnotation(Flattened.class);
        if (flattened != null) {
            flattenedPart(component, where, prefix + flattened.prefix(), index, stored, i);
            return;
        }
        String name = component.isAnnotationPresent(Column.class) || prefix.isEmpty() ? storedName(component)
                : prefix + storedName(component);
        stored.add(new StoredColumn(name, component.getGenericType(), !prefix.isEmpty()));
        Conversion encode = columnEncoding(component.getGenericType());
        if (encode != null) {
            binders[i] = (params, value) -> params.add(value == null ? null : encode.apply(value));
        }
        ColumnReader reader = columnReader(component.getGenericType(), where);
        readers[i] = rs -> reader.read(rs, index);
    }

    private void flattenedPart(RecordComponent component, String where, String prefix, int index,
                               List<StoredColumn> stored, int i) {
        Class<? extends Record> valueType = recordType(component.getType(), where, "@Flattened");
        RecordComponent[] inner = components(valueType);
        if (inner.length == 0 || !inner[0].getType().isPrimitive()) {
            throw new IllegalArgumentException(where + ": a @Flattened value's first component must be a primitive,"
                    + " whose NULL column says the value is absent; " + valueType.getSimpleName() + " starts with "
                    + (inner.length == 0 ? "nothing" : inner[0].getType().getSimpleName()));
        }
        RecordCodec<?> value = new RecordCodec<>(valueType, prefix, index);
        stored.addAll(value.columns);
        int width = value.columns.size();
        binders[i] = (params, v) -> {
            if (v == null) {
                for (int c = 0; c < width; c++) {
                    params.add(null);
                }
            } else {
                value.bind(params, (Record) v);
            }
        };
        readers[i] = rs -> rs.getObject(index) == null ? null : value.construct(rs);
    }

    /** How a component's value is bound: a list of records as a list of tuples, anything else as it is (null). */
    private static Conversion columnEncoding(Type type) {
        if (raw(type) == List.class && raw(typeArgument(type, 0)).isRecord()) {
            TupleCodec tuple = TupleCodec.of(recordType(raw(typeArgument(type, 0)), "", ""));
            return v -> {
                List<?> values = (List<?>) v;
                Object[] tuples = new Object[values.size()];
                for (int i = 0; i < tuples.length; i++) {
                    tuples[i] = tuple.encode((Record) values.get(i));
                }
                return Arrays.asList(tuples);
            };
        }
        return null;
    }

    private static ColumnReader columnReader(Type type, String where) {
        Class<?> raw = raw(type);
        if (raw == String.class) {
            return ResultSet::getString;
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
            if (raw(element).isRecord()) {
                TupleCodec tuple = TupleCodec.of(recordType(raw(element), where, "a list"));
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
     * A record stored as a ClickHouse {@code Tuple}: an {@code Object[]} of its components in declared order, a
     * record among them a tuple again ({@code plain} when none is).
     */
    private record TupleCodec(RecordShape shape, Conversion[] encodings, Conversion[] decodings, boolean plain) {

        static TupleCodec of(Class<? extends Record> type) {
            RecordComponent[] components = components(type);
            Conversion[] encodings = new Conversion[components.length];
            Conversion[] decodings = new Conversion[components.length];
            for (int i = 0; i < components.length; i++) {
                RecordComponent c = components[i];
                String where = type.getSimpleName() + "." + c.getName();
                if (c.isAnnotationPresent(NotStored.class) || c.isAnnotationPresent(Flattened.class)) {
                    throw new IllegalArgumentException(where + ": a tuple element is always stored, as itself");
                }
                if (c.getType().isRecord()) {
                    TupleCodec nested = of(recordType(c.getType(), where, "a tuple"));
                    encodings[i] = v -> nested.encode((Record) v);
                    decodings[i] = v -> nested.decode((Object[]) v);
                } else {
                    decodings[i] = tupleElement(c.getType(), where);
                }
            }
            return new TupleCodec(RecordShape.of(type), encodings, decodings,
                    Arrays.stream(encodings).allMatch(java.util.Objects::isNull));
        }

        Object[] encode(Record value) {
            Object[] out = shape.values(value);
            if (plain) {
                return out;
            }
            for (int i = 0; i < out.length; i++) {
                if (encodings[i] != null && out[i] != null) {
                    out[i] = encodings[i].apply(out[i]);
                }
            }
            return out;
        }

        Record decode(Object[] tuple) {
            Object[] args = new Object[decodings.length];
            for (int i = 0; i < args.length; i++) {
                args[i] = tuple[i] == null ? null : decodings[i].apply(tuple[i]);
            }
            return shape.make(args);
        }
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
                + " the table does not store @NotStored)");
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

    private static RecordComponent[] components(Class<?> type) {
        if (!type.isRecord()) {
            throw new IllegalArgumentException(type.getName() + " is not a record");
        }
        return type.getRecordComponents();
    }

    @SuppressWarnings("unchecked")
    private static Class<? extends Record> recordType(Class<?> type, String where, String as) {
        if (!type.isRecord()) {
            throw new IllegalArgumentException(where + ": " + type.getName() + " as " + as + " must be a record");
        }
        return (Class<? extends Record>) type;
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
