package dev.caplab.store.schema;

/** A migration could not be read, did not match what was applied before, or failed to apply. */
public final class MigrationException extends RuntimeException {

    public MigrationException(String message) {
        super(message);
    }

    public MigrationException(String message, Throwable cause) {
        super(message, cause);
    }
}
