package dev.caplab.store.access;

/** A store operation failed; subclasses say whether retrying can help. */
public abstract sealed class StoreException extends RuntimeException
        permits StoreQueryException, StoreUnavailableException {

    StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
