package dev.caplab.store.access;

/** ClickHouse could not be reached or the connection broke (transport: retrying later may succeed). */
public final class StoreUnavailableException extends StoreException {

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
