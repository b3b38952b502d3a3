package dev.caplab.store.access;

import dev.caplab.store.engine.ChdbEngine;
import dev.caplab.store.engine.ClickHouseException;
import dev.caplab.store.engine.EngineException;
import dev.caplab.store.schema.Identifiers;
import java.util.List;
import java.util.Objects;

/**
 * RowBinary batches straight into the embedded engine of this process, for the high-volume tables of
 * {@code caplab up}: the bytes go from the encoder's buffer to the engine's spool file, instead of through the
 * driver, the loopback HTTP interface and its request copies. Semantics are the driver path's, pinned in the
 * statement: synchronous ({@code async_insert = 0}) and deduplicated by the batch's token. They run on the engine's
 * bulk-insert connections ({@link ChdbEngine#bulkInsert}), so several sink workers insert at once.
 */
public final class EngineInserts {

    private final ChdbEngine engine;
    private final String database;

    public EngineInserts(ChdbEngine engine, String database) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.database = Identifiers.requireSafe("database", database);
    }

    /** The database the rows go into. */
    String database() {
        return database;
    }

    /**
     * Inserts the rows {@code body} encodes (RowBinary in {@code columns} order, into the buffer it is given) into
     * {@code table}; a null token: none.
     */
    void insert(String table, List<String> columns, java.util.function.Consumer<RowBinaryBuffer> body,
            String dedupToken, String what) {
        insert(table, columns, "RowBinary", body, dedupToken, what);
    }

    /** As above, the rows encoded in {@code format} ({@code RowBinary} or {@code RowBinaryWithDefaults}). */
    void insert(String table, List<String> columns, String format, java.util.function.Consumer<RowBinaryBuffer> body,
            String dedupToken, String what) {
        String head = "INSERT INTO " + database + "." + table + " ("
                + String.join(", ", columns) + ") SETTINGS async_insert = 0, insert_deduplicate = 1"
                + (dedupToken == null ? "" : ", insert_deduplication_token = " + literal(dedupToken));
        try {
            engine.bulkInsert(head, format, spool -> {
                RowBinaryBuffer out = new RowBinaryBuffer(spool);
                body.accept(out);
                out.flush();
            });
        } catch (ClickHouseException e) {
            throw new StoreQueryException(what + " failed with ClickHouse code " + e.code() + ": " + e.getMessage(),
                    e.code(), e);
        } catch (EngineException e) {
            throw new StoreUnavailableException(what + " failed, the embedded engine is unavailable: "
                    + e.getMessage(), e);
        }
    }

    /** A ClickHouse string literal: backslash and quote escaped (tokens are printable ASCII, checked before). */
    private static String literal(String value) {
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }
}
