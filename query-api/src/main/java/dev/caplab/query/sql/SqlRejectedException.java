package dev.caplab.query.sql;

/** A statement the SQL endpoint refuses before running it: not a single SELECT, or reaching outside caplab's data. */
public final class SqlRejectedException extends RuntimeException {

    public SqlRejectedException(String message) {
        super(message);
    }
}
