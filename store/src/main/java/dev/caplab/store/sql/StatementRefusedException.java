package dev.caplab.store.sql;

/** A statement the {@link StatementPolicy} refuses, with what it refuses and where in the statement's tree. */
public final class StatementRefusedException extends RuntimeException {

    public StatementRefusedException(String message) {
        super(message);
    }
}
