package dev.caplab.store.http;

/**
 * A request refused before it reached the engine, answered with its own HTTP status (401, 403, 413, 503) and a
 * ClickHouse error code so clients report it as they would a server's refusal.
 */
final class RequestRefusedException extends RuntimeException {

    static final int AUTHENTICATION_FAILED = 516;
    static final int ACCESS_DENIED = 497;
    static final int TOO_LARGE = 1001;
    static final int TOO_MANY_QUERIES = 202;
    /** ClickHouse's UNKNOWN_EXCEPTION: it has no code for a server still setting itself up. */
    static final int NOT_READY = 1002;

    private final int httpStatus;
    private final int code;
    private final int retryAfterSeconds;

    RequestRefusedException(int httpStatus, int code, String message) {
        this(httpStatus, code, message, 0);
    }

    RequestRefusedException(int httpStatus, int code, String message, int retryAfterSeconds) {
        super(message);
        this.httpStatus = httpStatus;
        this.code = code;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    int httpStatus() {
        return httpStatus;
    }

    int code() {
        return code;
    }

    /** Seconds a client should wait before trying again; 0 when trying again would not help. */
    int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
