package dev.caplab.store.access;

import java.sql.SQLException;
import java.util.List;
import java.util.Objects;

/**
 * How one row type maps to its table: the columns, written and read back in the same order.
 *
 * @param replacing whether reads must collapse versions (ReplacingMergeTree) with FINAL
 * @param rowBinary  a hand-written RowBinary encoder of a row in column order for high-volume tables whose listed
 *                   columns have no DEFAULT (plain RowBinary, no per-value default flag), or null to let the driver
 *                   encode the values {@code writer} binds
 */
record RowCodec<T>(String table, List<String> columns, boolean replacing, Writer<T> writer,
                   TableAccess.Reader<T> reader, RowBinaryEncoder<T> rowBinary) {

    RowCodec {
        Objects.requireNonNull(table, "table");
        columns = List.copyOf(columns);
        Objects.requireNonNull(writer, "writer");
        Objects.requireNonNull(reader, "reader");
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
        }, rowBinary);
    }

    /** A codec whose rows the driver encodes. */
    RowCodec(String table, List<String> columns, boolean replacing, Writer<T> writer, TableAccess.Reader<T> reader) {
        this(table, columns, replacing, writer, reader, null);
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
