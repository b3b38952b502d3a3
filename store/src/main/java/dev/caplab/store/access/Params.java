package dev.caplab.store.access;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

/** Binds values to consecutive 1-based positions of one statement or one binary row; nulls stay null. */
final class Params {

    private final Binder binder;
    private int index;

    Params(Binder binder) {
        this.binder = binder;
    }

    /** Placeholders of a prepared statement; null becomes SQL NULL. */
    static Params of(PreparedStatement statement) {
        return new Params((index, value) -> {
            if (value == null) {
                statement.setNull(index, Types.NULL);
            } else {
                statement.setObject(index, value);
            }
        });
    }

    /** {@code n} placeholders separated by commas, for {@code IN (...)}. */
    static String placeholders(int n) {
        return String.join(", ", java.util.Collections.nCopies(n, "?"));
    }

    Params add(Object value) throws SQLException {
        binder.bind(++index, value);
        return this;
    }

    Params addAll(Object... values) throws SQLException {
        for (Object v : values) {
            add(v);
        }
        return this;
    }

    void reset() {
        index = 0;
    }

    /** Where a value at a 1-based position goes. */
    @FunctionalInterface
    interface Binder {
        void bind(int index, Object valueOrNull) throws SQLException;
    }
}
