package dev.caplab.query.store;

/** A row in the store that does not have the shape its table promises; names the column and shows the value. */
public final class StoreDataException extends RuntimeException {

    public StoreDataException(String message, Throwable cause) {
        super(message, cause);
    }
}
