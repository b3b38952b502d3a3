package dev.caplab.store.access;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the store says of an Avro record's fields where their names and types do not: a field's column when it is not
 * the field's name in snake_case, the fields it keeps no column for, the nested records it keeps as columns of the
 * row's own table (with their prefix), the lists it keeps as a JSON array in one text column. A field is named by
 * its path from the row's record ({@code resources.role}, {@code segments.interceptStdErr}); every other field is
 * stored as its name and type say ({@link RecordCodec}).
 */
final class AvroStorage {

    /** No field stored otherwise than its name and type say. */
    static AvroStorage asNamed() {
        return new AvroStorage();
    }

    private final Map<String, String> columns = new HashMap<>();
    private final Set<String> notStored = new HashSet<>();
    private final Map<String, String> flattened = new HashMap<>();
    private final Set<String> json = new HashSet<>();

    private AvroStorage() {
    }

    /** {@code path} is stored as {@code column}. */
    AvroStorage column(String path, String column) {
        columns.put(path, column);
        return this;
    }

    /** The fields of {@code paths} have no column: a value read back has their schema default. */
    AvroStorage notStored(String... paths) {
        notStored.addAll(Set.of(paths));
        return this;
    }

    /** The nested record at {@code path} is columns of the row's table named {@code prefix} + its fields' columns. */
    AvroStorage flattened(String path, String prefix) {
        flattened.put(path, prefix);
        return this;
    }

    /** The list at {@code path} is stored as a JSON array (Avro's JSON of its records) in its text column. */
    AvroStorage json(String path, String column) {
        json.add(path);
        return column(path, column);
    }

    String column(String path) {
        return columns.get(path);
    }

    boolean keepsNoColumn(String path) {
        return notStored.contains(path);
    }

    String flattenedPrefix(String path) {
        return flattened.get(path);
    }

    boolean json(String path) {
        return json.contains(path);
    }
}
