package dev.caplab.sink;

import dev.caplab.store.row.EventField;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * An event's row, derived from the row record: each component is the event field of its name (or the one its
 * {@link EventField} names), converted by the component's type: text to {@code String} (an Avro enum by its name),
 * numbers, booleans and times as they are, a map's keys to {@code String}, a nested Avro record (or a list of them) to
 * the component's record by the same rule. Everything is looked up once, when the mapper is built, which fails on a
 * component the event cannot fill.
 *
 * @param <E> the Avro event
 * @param <R> the row record
 */
final class EventRows<E extends SpecificRecordBase, R extends Record> {

    private final int[] positions;
    private final List<Function<Object, Object>> converters;
    private final MethodHandle constructor;

    private EventRows(int[] positions, List<Function<Object, Object>> converters, MethodHandle constructor) {
        this.positions = positions;
        this.converters = converters;
        this.constructor = constructor;
    }

    /** The mapper of {@code event} to {@code row}; fails naming the row, the component and the schema. */
    static <E extends SpecificRecordBase, R extends Record> EventRows<E, R> of(Class<E> event, Class<R> row) {
        Schema schema = SpecificData.get().getSchema(event);
        RecordComponent[] components = row.getRecordComponents();
        int[] positions = new int[components.length];
        List<Function<Object, Object>> converters = new ArrayList<>(components.length);
        for (int i = 0; i < components.length; i++) {
            RecordComponent component = components[i];
            EventField named = component.getAnnotation(EventField.class);
            String name = named == null ? component.getName() : named.value();
            Schema.Field field = schema.getField(name);
            if (field == null) {
                throw new IllegalArgumentException(row.getSimpleName() + "." + component.getName()
                        + " has no field " + name + " in the Avro schema " + schema.getFullName() + " (fields "
                        + schema.getFields().stream().map(Schema.Field::name).toList()
                        + "): name its field with @EventField or map the row by hand");
            }
            positions[i] = field.pos();
            converters.add(converter(component.getType(), component.getGenericType(), field.schema(),
                    row.getSimpleName() + "." + component.getName() + " from " + schema.getFullName() + "."
                            + name, event.getClassLoader()));
        }
        Class<?>[] types = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
        try {
            MethodHandle constructor = MethodHandles.publicLookup()
                    .findConstructor(row, MethodType.methodType(void.class, types))
                    .asSpreader(Object[].class, types.length)
                    .asType(MethodType.methodType(Object.class, Object[].class));
            return new EventRows<>(positions, Collections.unmodifiableList(converters), constructor);
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("no public canonical constructor of " + row.getName(), e);
        }
    }

    /** The row of {@code event}; a row's own checks fail as they do when constructed by hand. */
    @SuppressWarnings("unchecked")
    R row(E event) {
        Object[] args = new Object[positions.length];
        for (int i = 0; i < args.length; i++) {
            args[i] = converters.get(i).apply(event.get(positions[i]));
        }
        try {
            return (R) (Object) constructor.invokeExact(args);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("constructing a row of " + event.getSchema().getFullName(), e);
        }
    }

    private static Function<Object, Object> converter(Class<?> type, Type generic, Schema field, String where,
            ClassLoader loader) {
        boolean nullable = field.isNullable();
        Schema value = nonNull(field);
        if (type.isPrimitive() && nullable) {
            throw new IllegalArgumentException(where + ": a primitive component of a nullable field");
        }
        if (type == String.class) {
            return switch (value.getType()) {
                case STRING -> v -> v == null ? null : v.toString();
                case ENUM -> v -> v == null ? null : ((Enum<?>) v).name();
                default -> throw mismatch(where, type, value);
            };
        }
        if (type == Map.class && value.getType() == Schema.Type.MAP) {
            boolean text = argument(generic, 1) == String.class;
            if (text && value.getValueType().getType() != Schema.Type.STRING) {
                throw mismatch(where, type, value);
            }
            return v -> v == null ? null : keyedByString((Map<?, ?>) v, text);
        }
        if (type == List.class && value.getType() == Schema.Type.ARRAY
                && value.getElementType().getType() == Schema.Type.RECORD
                && argument(generic, 0) instanceof Class<?> element && element.isRecord()) {
            EventRows<?, ?> nested = nested(value.getElementType(), element, loader);
            return v -> v == null ? null : ((List<?>) v).stream().map(nested::anyRow).toList();
        }
        if (type.isRecord() && value.getType() == Schema.Type.RECORD) {
            EventRows<?, ?> nested = nested(value, type, loader);
            return v -> v == null ? null : nested.anyRow(v);
        }
        if (box(type) != avroClass(value)) {
            throw mismatch(where, type, value);
        }
        return v -> v;
    }

    /** The generated class of a nested record, from the loader of the event that holds it. */
    @SuppressWarnings("unchecked")
    private static EventRows<?, ?> nested(Schema avro, Class<?> row, ClassLoader loader) {
        try {
            Class<?> event = Class.forName(avro.getFullName(), false, loader);
            return of(event.asSubclass(SpecificRecordBase.class), (Class<? extends Record>) row);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("no generated class of the Avro record " + avro.getFullName(), e);
        }
    }

    @SuppressWarnings("unchecked")
    private Object anyRow(Object event) {
        return row((E) event);
    }

    private static Map<String, Object> keyedByString(Map<?, ?> map, boolean textValues) {
        Map<String, Object> out = new TreeMap<>();
        map.forEach((k, v) -> out.put(k.toString(), textValues && v != null ? v.toString() : v));
        return out;
    }

    private static Schema nonNull(Schema schema) {
        if (schema.getType() != Schema.Type.UNION) {
            return schema;
        }
        List<Schema> branches = schema.getTypes().stream().filter(s -> s.getType() != Schema.Type.NULL).toList();
        if (branches.size() != 1) {
            throw new IllegalArgumentException("a union of more than null and one type: " + schema);
        }
        return branches.getFirst();
    }

    private static Class<?> avroClass(Schema schema) {
        if (schema.getLogicalType() instanceof LogicalTypes.TimestampMicros
                || schema.getLogicalType() instanceof LogicalTypes.TimestampMillis) {
            return Instant.class;
        }
        return switch (schema.getType()) {
            case INT -> Integer.class;
            case LONG -> Long.class;
            case FLOAT -> Float.class;
            case DOUBLE -> Double.class;
            case BOOLEAN -> Boolean.class;
            default -> Void.class;
        };
    }

    private static Class<?> box(Class<?> type) {
        return type.isPrimitive() ? MethodType.methodType(type).wrap().returnType() : type;
    }

    private static Type argument(Type generic, int index) {
        return generic instanceof ParameterizedType p ? p.getActualTypeArguments()[index] : Object.class;
    }

    private static IllegalArgumentException mismatch(String where, Class<?> type, Schema value) {
        return new IllegalArgumentException(where + ": a " + type.getSimpleName() + " component cannot hold Avro "
                + value);
    }
}
