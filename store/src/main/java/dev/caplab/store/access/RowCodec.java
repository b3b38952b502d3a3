package dev.caplab.store.access;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * How one row type maps to its table: the columns, written and read back in the same order.
 *
 * @param replacing   whether reads must collapse versions (ReplacingMergeTree) with FINAL
 * @param rowBinary   a hand-written RowBinary encoder of a row in column order for high-volume tables whose listed
 *                    columns have no DEFAULT (plain RowBinary, no per-value default flag), or null to let the driver
 *                    encode the values {@code writer} binds
 * @param derivedFrom the record codec the columns, writer and reader were derived from, or null for a hand-written
 *                    codec
 */
record RowCodec<T>(String table, List<String> columns, boolean replacing, Writer<T> writer,
                   TableAccess.Reader<T> reader, RowBinaryEncoder<T> rowBinary, RecordCodec<?> derivedFrom) {

    RowCodec {
        Objects.requireNonNull(table, "table");
        columns = List.copyOf(columns);
        Objects.requireNonNull(writer, "writer");
        Objects.requireNonNull(reader, "reader");
    }

    /**
     * The codec of a table whose rows are the records of {@code type}: columns, writer and reader derived from its
     * components ({@link RecordCodec}).
     */
    static <R> RowCodec<R> derived(String table, Class<R> type, boolean replacing) {
        return derived(table, type, replacing, AvroStorage.asNamed());
    }

    /** The codec of a table whose rows are the Avro records of {@code type}, stored as {@code storage} says. */
    static <R> RowCodec<R> derived(String table, Class<R> type, boolean replacing, AvroStorage storage) {
        RecordCodec<R> record = RecordCodec.of(type, storage);
        return new RowCodec<>(table, record.columns(), replacing, record::write, record::read, null, record);
    }

    /**
     * A codec for a table rows are only written to, by {@code rowBinary} (the driver never binds them, and reads go
     * elsewhere, e.g. through a view): its writer and reader refuse, naming the table.
     */
    static <T> RowCodec<T> writeOnly(String table, List<String> columns, RowBinaryEncoder<T> rowBinary) {
        Objects.requireNonNull(rowBinary, "rowBinary");
        return new RowCodec<>(table, columns, false, (p, r) -> {
            throw new UnsupportedOperationException(table + " is written as RowBinary only");
        }, rs -> {
            throw new UnsupportedOperationException(table + " is not read through its codec");
        }, rowBinary, null);
    }

    /** A hand-written codec whose rows the driver encodes. */
    RowCodec(String table, List<String> columns, boolean replacing, Writer<T> writer, TableAccess.Reader<T> reader) {
        this(table, columns, replacing, writer, reader, null, null);
    }

    /**
     * This codec with one more column written after the others, its value computed from the row: reads, which take
     * the row's columns in order, never look at it.
     */
    RowCodec<T> withWrittenColumn(String column, Function<T, Object> value) {
        List<String> more = new ArrayList<>(columns);
        more.add(column);
        Writer<T> rowWriter = writer;
        return new RowCodec<>(table, more, replacing, (p, r) -> {
            rowWriter.write(p, r);
            p.add(value.apply(r));
        }, reader, rowBinary, derivedFrom);
    }

    /** This codec refusing every write with {@code why}: for a view, whose rows go to other tables. */
    RowCodec<T> refusingWrites(String why) {
        return new RowCodec<>(table, columns, replacing, (p, r) -> {
            throw new UnsupportedOperationException(why);
        }, reader, rowBinary, derivedFrom);
    }

    /**
     * Appends a batch's rows as RowBinary in column order: a batch at a time, so per-batch state (an encoder's
     * thread-local caches) is looked up once per batch, not per row.
     */
    @FunctionalInterface
    interface RowBinaryEncoder<T> {
        void encode(List<T> rows, RowBinaryBuffer out);
    }

    /** Binds one row's values in column order. */
    @FunctionalInterface
    interface Writer<T> {
        void write(Params params, T row) throws SQLException;
    }
}
