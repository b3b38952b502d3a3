package dev.caplab.store.http;

/** The HTTP interface could not start, e.g. because its port is taken. */
public final class ServerStartException extends RuntimeException {

    public ServerStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
