package dev.caplab.query.sql;

/**
 * ClickHouse refused or aborted a statement; carries its error code (159 timeout, 396 too many rows or bytes, 241
 * memory limit, 62 syntax).
 */
public final class SqlFailedException extends RuntimeException {

    static final int TIMEOUT_EXCEEDED = 159;
    static final int TOO_MANY_ROWS_OR_BYTES = 396;
    static final int MEMORY_LIMIT_EXCEEDED = 241;

    private final int clickhouseCode;

    public SqlFailedException(int clickhouseCode, String message) {
        super(message);
        this.clickhouseCode = clickhouseCode;
    }

    public int clickhouseCode() {
        return clickhouseCode;
    }

    boolean limitExceeded() {
        return clickhouseCode == TIMEOUT_EXCEEDED || clickhouseCode == TOO_MANY_ROWS_OR_BYTES
                || clickhouseCode == MEMORY_LIMIT_EXCEEDED;
    }
}
