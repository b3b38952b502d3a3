package dev.caplab.store.access;

import java.sql.SQLException;
import java.util.List;
import java.util.Objects;

/**
 * How one row type maps to its table: the columns, written and read back in the same order.
 *
 * @param replacing whether reads must collapse versions (ReplacingMergeTree) with FINAL
 */
record RowCodec<T>(String table, List<String> columns, boolean replacing, Writer<T> writer,
                   TableAccess.Reader<T> reader) {

    RowCodec {
        Objects.requireNonNull(table, "table");
        columns = List.copyOf(columns);
        Objects.requireNonNull(writer, "writer");
        Objects.requireNonNull(reader, "reader");
    }

    /** Binds one row's values in column order. */
    @FunctionalInterface
    interface Writer<T> {
        void write(Params params, T row) throws SQLException;
    }
}
