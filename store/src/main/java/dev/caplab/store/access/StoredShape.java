package dev.caplab.store.access;

import dev.caplab.schema.serde.AvroTrust;
import dev.caplab.store.row.Column;
import dev.caplab.store.row.Flattened;
import dev.caplab.store.row.NotStored;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * A stored type as the codec sees it: its parts in order, each with the Java type it holds and how it is stored, and
 * how to take a value apart into them and make one back. Two kinds of type are stored: the schema's Avro records
 * (the events and the derived records streams emits), whose parts are the schema's fields and whose storage the
 * store says in {@link AvroStorage}, and the store's own Java records (rows with no event of their own), whose parts
 * are their components with the storage annotations of {@code dev.caplab.store.row}.
 */
interface StoredShape {

    /** The type's simple name, for messages. */
    String name();

    /** The parts in the order they are stored. */
    List<Part> parts();

    /** The parts' values of {@code value}, in order, primitives boxed. */
    Object[] values(Object value);

    /** The value made of {@code values}, in order (a part not stored gets its default). */
    Object make(Object[] values);

    /**
     * One part: its name in the type, the Java type it holds, and its storage: the column (or tuple element) it is
     * stored as, {@code columnFixed} when that name is given outright (a flattened value's prefix does not apply),
     * {@code notStored} when it has none, {@code flattenedPrefix} when the value is columns of the row's own table,
     * {@code json} when a list is stored as a JSON array in a text column.
     */
    record Part(String name, Type type, String column, boolean columnFixed, boolean notStored,
                String flattenedPrefix, boolean json) {
    }

    /** Whether values of {@code type} are stored part by part: a Java record or an Avro record. */
    static boolean structured(Class<?> type) {
        return type.isRecord() || SpecificRecordBase.class.isAssignableFrom(type);
    }

    /** The shape of {@code type}, an Avro record stored as {@code storage} says from {@code path} on, or a record. */
    static StoredShape of(Class<?> type, AvroStorage storage, String path) {
        if (SpecificRecordBase.class.isAssignableFrom(type)) {
            return new AvroShape(type.asSubclass(SpecificRecordBase.class), storage, path);
        }
        if (type.isRecord()) {
            return new JavaRecordShape(type.asSubclass(Record.class));
        }
        throw new IllegalArgumentException(type.getName() + " is neither a record nor an Avro record");
    }

    /** A Java record: its components, stored as their annotations say, through its spun {@link RecordShape}. */
    final class JavaRecordShape implements StoredShape {
        private final Class<? extends Record> type;
        private final List<Part> parts;
        private final RecordShape shape;

        JavaRecordShape(Class<? extends Record> type) {
            this.type = type;
            List<Part> out = new ArrayList<>();
            for (RecordComponent c : type.getRecordComponents()) {
                Column column = c.getAnnotation(Column.class);
                Flattened flattened = c.getAnnotation(Flattened.class);
                out.add(new Part(c.getName(), c.getGenericType(),
                        column != null ? column.value() : RecordCodec.snakeCase(c.getName()), column != null,
                        c.isAnnotationPresent(NotStored.class), flattened == null ? null : flattened.prefix(), false));
            }
            this.parts = List.copyOf(out);
            this.shape = RecordShape.of(type);
        }

        @Override
        public String name() {
            return type.getSimpleName();
        }

        @Override
        public List<Part> parts() {
            return parts;
        }

        @Override
        public Object[] values(Object value) {
            return shape.values((Record) value);
        }

        @Override
        public Object make(Object[] values) {
            return shape.make(values);
        }
    }

    /**
     * An Avro record of the schema: its fields in the schema's order, each part holding what its generated getter
     * returns (so {@code timestamp-micros} is an {@link java.time.Instant}, an enum its generated enum, a nested
     * record its generated class), read with {@code get(i)} and set with {@code put(i, v)}. A field the store keeps
     * no column for gets the schema's default when a value is made.
     */
    final class AvroShape implements StoredShape {
        private final Class<? extends SpecificRecordBase> type;
        private final List<Part> parts;
        private final Object[] defaults;

        static {
            AvroTrust.install(); // SpecificData resolves a nested record's generated class by name
        }

        AvroShape(Class<? extends SpecificRecordBase> type, AvroStorage storage, String path) {
            this.type = type;
            Schema schema = SpecificData.get().getSchema(type);
            List<Part> out = new ArrayList<>();
            this.defaults = new Object[schema.getFields().size()];
            for (Schema.Field field : schema.getFields()) {
                String at = path.isEmpty() ? field.name() : path + "." + field.name();
                String column = storage.column(at);
                boolean notStored = storage.keepsNoColumn(at);
                out.add(new Part(field.name(), getter(type, field).getGenericReturnType(),
                        column != null ? column : RecordCodec.snakeCase(field.name()), column != null, notStored,
                        storage.flattenedPrefix(at), storage.json(at)));
                if (notStored) {
                    defaults[field.pos()] = field.hasDefaultValue() ? SpecificData.get().getDefaultValue(field) : null;
                }
            }
            this.parts = List.copyOf(out);
        }

        @Override
        public String name() {
            return type.getSimpleName();
        }

        @Override
        public List<Part> parts() {
            return parts;
        }

        @Override
        public Object[] values(Object value) {
            SpecificRecordBase record = (SpecificRecordBase) value;
            Object[] out = new Object[parts.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = record.get(i);
            }
            return out;
        }

        @Override
        public Object make(Object[] values) {
            SpecificRecordBase record = (SpecificRecordBase) SpecificData.newInstance(type, null);
            for (int i = 0; i < values.length; i++) {
                record.put(i, parts.get(i).notStored() ? copyOf(i) : values[i]);
            }
            return record;
        }

        private Object copyOf(int field) {
            Object value = defaults[field];
            return value == null ? null : SpecificData.get().deepCopy(
                    SpecificData.get().getSchema(type).getFields().get(field).schema(), value);
        }

        /** The generated getter of {@code field}: {@code get} and its name with the first letter upper case. */
        private static Method getter(Class<?> type, Schema.Field field) {
            String name = "get" + Character.toUpperCase(field.name().charAt(0)) + field.name().substring(1);
            try {
                return type.getMethod(name);
            } catch (NoSuchMethodException e) {
                throw new IllegalArgumentException(type.getSimpleName() + "." + field.name()
                        + ": no generated getter " + name, e);
            }
        }
    }
}
