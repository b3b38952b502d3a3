package dev.caplab.query.sql;

/**
 * ClickHouse refused or aborted a statement; carries its error code (159 timeout, 396 too many rows or bytes, 241
 * memory limit, 62 syntax).
 */
public final class SqlFailedException extends RuntimeException {

    static final int TIMEOUT_EXCEEDED = 159;
    static final int TOO_MANY_ROWS_OR_BYTES = 396;
    static final int MEMORY_LIMIT_EXCEEDED = 241;
    /** The server's (or embedded port's) reader queue is full: a retry later can succeed. */
    static final int TOO_MANY_SIMULTANEOUS_QUERIES = 202;
    static final int UNKNOWN_USER = 192;
    static final int AUTHENTICATION_FAILED = 516;

    private final int clickhouseCode;

    public SqlFailedException(int clickhouseCode, String message) {
        super(message);
        this.clickhouseCode = clickhouseCode;
    }

    public int clickhouseCode() {
        return clickhouseCode;
    }

    /** ClickHouse is at capacity; says nothing about the statement. */
    boolean busy() {
        return clickhouseCode == TOO_MANY_SIMULTANEOUS_QUERIES;
    }

    /** The API could not reach or log in to ClickHouse: caplab's fault, not the statement's. */
    boolean gatewayFailure() {
        return clickhouseCode < 0 || clickhouseCode == UNKNOWN_USER || clickhouseCode == AUTHENTICATION_FAILED;
    }

    boolean limitExceeded() {
        return clickhouseCode == TIMEOUT_EXCEEDED || clickhouseCode == TOO_MANY_ROWS_OR_BYTES
                || clickhouseCode == MEMORY_LIMIT_EXCEEDED;
    }
}
