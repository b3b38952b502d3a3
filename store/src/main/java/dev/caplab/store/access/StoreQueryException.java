package dev.caplab.store.access;

/** ClickHouse rejected the statement or its data (poison: retrying the same thing fails the same way). */
public final class StoreQueryException extends StoreException {

    private final int clickHouseCode;

    public StoreQueryException(String message, int clickHouseCode, Throwable cause) {
        super(message, cause);
        this.clickHouseCode = clickHouseCode;
    }

    /** ClickHouse's error code, e.g. 62 for a syntax error, 60 for an unknown table. */
    public int clickHouseCode() {
        return clickHouseCode;
    }
}
