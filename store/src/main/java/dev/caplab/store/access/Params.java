package dev.caplab.store.access;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

/** Binds values to consecutive placeholders of one statement; nulls become SQL NULL. */
final class Params {

    private final PreparedStatement statement;
    private int index;

    Params(PreparedStatement statement) {
        this.statement = statement;
    }

    Params add(Object value) throws SQLException {
        index++;
        if (value == null) {
            statement.setNull(index, Types.NULL);
        } else {
            statement.setObject(index, value);
        }
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
}
