package dev.caplab.store.access;

import dev.caplab.store.row.Column;
import dev.caplab.store.row.Flattened;
import dev.caplab.store.row.NotStored;

import java.lang.invoke.CallSite;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
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
import java.util.function.Function;

/**
 * The columns, writer and reader of a row record, derived from its components in declared order: each component is
 * the column named after it in snake_case ({@code breakpointPValue} is {@code breakpoint_p_value}) or as its
 * {@link Column} says, bound as its accessor returns it and read back by its Java type into the canonical
 * constructor. A list of records is an {@code Array(Tuple(...))} column, each tuple an {@code Object[]} of the
 * record's components in order (a record inside a tuple is a tuple again); a {@link Flattened} record is columns of
 * the row's own table; a {@link NotStored} component has none. A type the store has no column for fails here, when
 * the codec is made, naming the record and the component.
 *
 * <p>Accessors and constructors are method handles looked up once per codec: a row costs one accessor call per
 * column to write and one result-set read per column to read.
 */
final class RecordCodec<R extends Record> {

    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

    private final Class<R> type;
    private final List<StoredColumn> columns;
    private final Part[] parts;
    private final MethodHandle constructor;

    private RecordCodec(Class<R> type, String prefix, int firstIndex) {
        this.type = type;
        RecordComponent[] components = components(type);
        List<StoredColumn> stored = new ArrayList<>();
        this.parts = new Part[components.length];
        for (int i = 0; i < components.length; i++) {
            parts[i] = part(components[i], prefix, firstIndex + stored.size(), stored);
        }
        this.columns = List.copyOf(stored);
        this.constructor = spreadConstructor(type, components);
    }

    /** The codec of {@code type}'s rows, their columns read from the first of a result set's row on. */
    static <R extends Record> RecordCodec<R> of(Class<R> type) {
        return new RecordCodec<>(type, "", 1);
    }

    /** The record type rows are made of. */
    Class<R> type() {
        return type;
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
        for (Part part : parts) {
            part.bind(params, row);
        }
    }

    private Record construct(ResultSet rs) throws SQLException {
        Object[] args = new Object[parts.length];
        for (int i = 0; i < parts.length; i++) {
            args[i] = parts[i].read(rs);
        }
        return newRecord(constructor, args);
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

    /** One component's columns (none, one, or a flattened value's): how it is bound and read back. */
    private interface Part {
        void bind(Params params, Record row) throws SQLException;

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

    private static Part part(RecordComponent component, String prefix, int index, List<StoredColumn> stored) {
        String where = component.getDeclaringRecord().getSimpleName() + "." + component.getName();
        Class<?> raw = component.getType();
        Function<Record, Object> accessor = accessor(component);
        if (component.isAnnotationPresent(NotStored.class)) {
            Object absent = raw.isPrimitive() ? zero(raw) : null;
            return new Part() {
                public void bind(Params params, Record row) {
                }

                public Object read(ResultSet rs) {
                    return absent;
                }
            };
        }
        Flattened flattened = component.getAnnotation(Flattened.class);
        if (flattened != null) {
            return flattenedPart(component, where, prefix + flattened.prefix(), index, accessor, stored);
        }
        String name = component.isAnnotationPresent(Column.class) || prefix.isEmpty() ? storedName(component)
                : prefix + storedName(component);
        stored.add(new StoredColumn(name, component.getGenericType(), !prefix.isEmpty()));
        Conversion encode = columnEncoding(component.getGenericType());
        ColumnReader reader = columnReader(component.getGenericType(), where);
        return new Part() {
            public void bind(Params params, Record row) throws SQLException {
                Object value = accessor.apply(row);
                params.add(encode == null || value == null ? value : encode.apply(value));
            }

            public Object read(ResultSet rs) throws SQLException {
                return reader.read(rs, index);
            }
        };
    }

    private static Part flattenedPart(RecordComponent component, String where, String prefix, int index,
                                      Function<Record, Object> accessor, List<StoredColumn> stored) {
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
        return new Part() {
            public void bind(Params params, Record row) throws SQLException {
                Record v = (Record) accessor.apply(row);
                if (v == null) {
                    for (int i = 0; i < width; i++) {
                        params.add(null);
                    }
                } else {
                    value.bind(params, v);
                }
            }

            public Object read(ResultSet rs) throws SQLException {
                return rs.getObject(index) == null ? null : value.construct(rs);
            }
        };
    }

    /** How a component's value is bound: a list of records as a list of tuples, anything else as it is (null). */
    private static Conversion columnEncoding(Type type) {
        if (raw(type) == List.class && raw(typeArgument(type, 0)).isRecord()) {
            TupleCodec tuple = TupleCodec.of(recordType(raw(typeArgument(type, 0)), "", ""));
            return v -> ((List<?>) v).stream().map(e -> tuple.encode((Record) e)).toList();
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
     * record among them a tuple again.
     */
    private record TupleCodec(Function<Record, Object>[] accessors, Conversion[] encodings, Conversion[] decodings,
                              MethodHandle constructor) {

        static TupleCodec of(Class<? extends Record> type) {
            RecordComponent[] components = components(type);
            @SuppressWarnings("unchecked")
            Function<Record, Object>[] accessors = new Function[components.length];
            Conversion[] encodings = new Conversion[components.length];
            Conversion[] decodings = new Conversion[components.length];
            for (int i = 0; i < components.length; i++) {
                RecordComponent c = components[i];
                String where = type.getSimpleName() + "." + c.getName();
                if (c.isAnnotationPresent(NotStored.class) || c.isAnnotationPresent(Flattened.class)) {
                    throw new IllegalArgumentException(where + ": a tuple element is always stored, as itself");
                }
                accessors[i] = accessor(c);
                if (c.getType().isRecord()) {
                    TupleCodec nested = of(recordType(c.getType(), where, "a tuple"));
                    encodings[i] = v -> nested.encode((Record) v);
                    decodings[i] = v -> nested.decode((Object[]) v);
                } else {
                    decodings[i] = tupleElement(c.getType(), where);
                }
            }
            return new TupleCodec(accessors, encodings, decodings, spreadConstructor(type, components));
        }

        Object[] encode(Record value) {
            Object[] out = new Object[accessors.length];
            for (int i = 0; i < out.length; i++) {
                Object v = accessors[i].apply(value);
                out[i] = encodings[i] == null || v == null ? v : encodings[i].apply(v);
            }
            return out;
        }

        Record decode(Object[] tuple) {
            Object[] args = new Object[decodings.length];
            for (int i = 0; i < args.length; i++) {
                args[i] = tuple[i] == null ? null : decodings[i].apply(tuple[i]);
            }
            return newRecord(constructor, args);
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

    /**
     * The component's accessor as a function: a class of its own calling the accessor directly (LambdaMetafactory),
     * which the JIT compiles as it would a lambda, where a method handle held in a field is called through its
     * lambda forms on every row.
     */
    @SuppressWarnings("unchecked")
    private static Function<Record, Object> accessor(RecordComponent component) {
        Class<?> record = component.getDeclaringRecord();
        try {
            MethodHandle getter = LOOKUP.unreflect(component.getAccessor());
            CallSite site = LambdaMetafactory.metafactory(LOOKUP, "apply", MethodType.methodType(Function.class),
                    MethodType.methodType(Object.class, Object.class), getter,
                    MethodType.methodType(getter.type().wrap().returnType(), record));
            return (Function<Record, Object>) site.getTarget().invoke();
        } catch (Throwable e) {
            throw new IllegalArgumentException(record.getName() + "." + component.getName()
                    + ": its accessor is not accessible to the store", e);
        }
    }

    /** The canonical constructor as {@code (Object[]) -> Record}, the arguments in component order. */
    private static MethodHandle spreadConstructor(Class<?> type, RecordComponent[] components) {
        Class<?>[] parameters = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
        try {
            return LOOKUP.unreflectConstructor(type.getDeclaredConstructor(parameters))
                    .asSpreader(Object[].class, parameters.length)
                    .asType(MethodType.methodType(Record.class, Object[].class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new IllegalArgumentException(type.getName() + ": its canonical constructor is not accessible to"
                    + " the store", e);
        }
    }

    private static Record newRecord(MethodHandle constructor, Object[] args) {
        try {
            return (Record) constructor.invokeExact(args);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("constructing a row record", e);
        }
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
