package dev.caplab.query.sql;

/** The SQL endpoint already runs as many statements as it may; the client should retry shortly. */
public final class SqlBusyException extends RuntimeException {

    private final int limit;

    public SqlBusyException(int limit) {
        super("the SQL endpoint already runs " + limit + " statements (caplab.query.sql.max-concurrent-queries);"
                + " retry shortly");
        this.limit = limit;
    }

    public int limit() {
        return limit;
    }
}
