package dev.caplab.store.access;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.ClientException;
import com.clickhouse.client.api.ServerException;
import com.clickhouse.client.api.data_formats.RowBinaryFormatWriter;
import com.clickhouse.client.api.insert.InsertResponse;
import com.clickhouse.client.api.insert.InsertSettings;
import com.clickhouse.client.api.metadata.TableSchema;
import com.clickhouse.data.ClickHouseColumn;
import com.clickhouse.data.ClickHouseFormat;
import com.clickhouse.jdbc.ConnectionImpl;

import javax.sql.DataSource;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/** Batch insert and filtered select for one table, shared by every repository so none re-implements JDBC. */
final class TableAccess<T> {

    private static final java.util.regex.Pattern TOKEN = java.util.regex.Pattern.compile("[\\x20-\\x7E]{1,256}");

    private final DataSource dataSource;
    private final RowCodec<T> codec;
    private final String insertSql;
    private final String selectSql;
    private final Map<String, TableSchema> insertSchemas = new ConcurrentHashMap<>();
    private final EngineInserts direct;

    TableAccess(DataSource dataSource, RowCodec<T> codec) {
        this(dataSource, codec, null);
    }

    /**
     * With {@code direct} (may be null), batches skip the driver's HTTP round trip: rows go straight into the
     * in-process engine, encoded by the codec's own RowBinary encoder or, without one, by the driver's writer.
     */
    TableAccess(DataSource dataSource, RowCodec<T> codec, EngineInserts direct) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.codec = codec;
        this.direct = direct;
        String cols = String.join(", ", codec.columns());
        this.insertSql = "INSERT INTO " + codec.table() + " (" + cols + ") VALUES ("
                + String.join(", ", java.util.Collections.nCopies(codec.columns().size(), "?")) + ")";
        this.selectSql = "SELECT " + cols + " FROM " + codec.table() + (codec.replacing() ? " FINAL" : "");
    }

    /**
     * Inserts {@code rows} as one batch. A non-null {@code dedupToken} makes a retry of the same batch a no-op
     * (ClickHouse's insert_deduplication_token); it travels as a setting, never inside the SQL text.
     *
     * <p>Why client-v2's insert API rather than {@code PreparedStatement.executeBatch()}: the driver's RowBinary
     * batch path ({@code WriterStatementImpl}, 0.10.0) builds its insert with empty {@code InsertSettings}, so a
     * statement-local token never reaches the server, and its text path inlines values the Values parser reads
     * 1 ulp off. Here the same driver connection encodes the rows with the driver's own RowBinary writer and sends
     * them with the token as an insert setting.
     */
    int insertBatch(List<T> rows, String dedupToken) {
        Objects.requireNonNull(rows, "rows");
        if (rows.isEmpty()) {
            return 0;
        }
        if (dedupToken != null && !TOKEN.matcher(dedupToken).matches()) {
            throw new IllegalArgumentException("dedupToken must be 1-256 printable ASCII characters");
        }
        String what = "inserting " + rows.size() + " rows into " + codec.table();
        if (direct != null && codec.rowBinary() != null) {
            direct.insert(codec.table(), codec.columns(), out -> codec.rowBinary().encode(rows, out), dedupToken,
                    what);
            return rows.size();
        }
        if (direct != null) {
            return insertDirectWithDriverEncoding(rows, dedupToken, what);
        }
        try (Connection c = dataSource.getConnection()) {
            Client client = c.unwrap(ConnectionImpl.class).getClient();
            TableSchema schema = insertSchema(client, c.getSchema());
            RowBinaryBuffer out = new RowBinaryBuffer(rows.size() * 96);
            ClickHouseFormat format = encode(rows, schema, out);
            InsertSettings settings = new InsertSettings();
            if (dedupToken != null) {
                settings.setDeduplicationToken(dedupToken);
            }
            try (InsertResponse ignored = client.insert(codec.table(), codec.columns(), out.asInputStream(),
                    format, settings).get()) {
                return rows.size();
            }
        } catch (SQLException e) {
            throw translate(what, e);
        } catch (IOException e) {
            throw new IllegalStateException(what + ": encoding RowBinary in memory failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException(what + " was interrupted; the batch may or may not be stored", e);
        } catch (ExecutionException e) {
            throw translate(what, e.getCause());
        } catch (RuntimeException e) {
            throw translate(what, e);
        }
    }

    /**
     * The few rows of a derived table, in embedded mode: the driver's RowBinary writer encodes them (their codecs
     * have no encoder of their own) and the engine inserts them without the HTTP round trip, whose CPU per insert
     * (driver, HTTP server, settings statements) exceeds the engine's own (bench/README.md).
     */
    private int insertDirectWithDriverEncoding(List<T> rows, String dedupToken, String what) {
        TableSchema schema = directInsertSchema(what);
        RowBinaryBuffer encoded = new RowBinaryBuffer(rows.size() * 96);
        ClickHouseFormat format;
        try {
            format = encode(rows, schema, encoded);
        } catch (IOException | SQLException e) {
            throw new IllegalStateException(what + ": encoding RowBinary in memory failed", e);
        }
        direct.insert(codec.table(), codec.columns(), format.name(),
                out -> out.bytes(encoded.array(), 0, encoded.size()), dedupToken, what);
        return rows.size();
    }

    /** The schema of the table in the engine's database; a driver connection only the first time. */
    private TableSchema directInsertSchema(String what) {
        TableSchema known = insertSchemas.get(direct.database());
        if (known != null) {
            return known;
        }
        try (Connection c = dataSource.getConnection()) {
            return insertSchema(c.unwrap(ConnectionImpl.class).getClient(), direct.database());
        } catch (SQLException e) {
            throw translate(what, e);
        } catch (RuntimeException e) {
            throw translate(what, e);
        }
    }

    /**
     * Encodes the rows into {@code out} and returns the format written: the codec's own RowBinary encoder when it
     * has one, else the driver's writer driven by the types in {@code schema}.
     */
    private ClickHouseFormat encode(List<T> rows, TableSchema schema, RowBinaryBuffer out)
            throws IOException, SQLException {
        if (codec.rowBinary() != null) {
            codec.rowBinary().encode(rows, out);
            return ClickHouseFormat.RowBinary;
        }
        RowBinaryFormatWriter writer = new RowBinaryFormatWriter(out.asOutputStream(), schema,
                schema.hasDefaults() ? ClickHouseFormat.RowBinaryWithDefaults : ClickHouseFormat.RowBinary);
        Params params = new Params(writer::setValue);
        for (T row : rows) {
            params.reset();
            codec.writer().write(params, row);
            writer.commitRow();
        }
        return writer.getFormat();
    }

    /** The table's columns in codec order, described once per database (types drive the RowBinary encoding). */
    private TableSchema insertSchema(Client client, String database) {
        return insertSchemas.computeIfAbsent(database, db -> {
            TableSchema table = client.getTableSchema(codec.table(), db);
            List<ClickHouseColumn> columns = codec.columns().stream().map(table::getColumnByName).toList();
            return new TableSchema(table.getTableName(), table.getQuery(), table.getDatabaseName(), columns);
        });
    }

    /** Classifies a client-v2 failure the way {@link #translate(String, SQLException)} classifies JDBC ones. */
    private static RuntimeException translate(String what, Throwable e) {
        return switch (e) {
            case ServerException s -> new StoreQueryException(what + " failed with ClickHouse code " + s.getCode()
                    + ": " + s.getMessage(), s.getCode(), s);
            case ClientException c -> new StoreUnavailableException(what
                    + " failed, ClickHouse unreachable or connection lost: " + c.getMessage(), c);
            case StoreException s -> s;
            case RuntimeException r when !(r instanceof IllegalArgumentException) -> new StoreUnavailableException(
                    what + " failed: " + r, r);
            case RuntimeException r -> r;
            default -> new StoreUnavailableException(what + " failed: " + e, e);
        };
    }

    /** Rows matching {@code where} (placeholders bound from {@code values}), in {@code orderBy} order. */
    List<T> select(String where, String orderBy, Object... values) {
        String sql = selectSql + (where.isEmpty() ? "" : " WHERE " + where)
                + (orderBy.isEmpty() ? "" : " ORDER BY " + orderBy);
        return query(sql, codec.reader(), values);
    }

    /** Runs a read with bound values and maps each row. */
    <R> List<R> query(String sql, Reader<R> reader, Object... values) {
        return query(dataSource, "reading " + codec.table(), sql, reader, values);
    }

    /** Runs a read with bound values on {@code dataSource} and maps each row; a failure names {@code what}. */
    static <R> List<R> query(DataSource dataSource, String what, String sql, Reader<R> reader, Object... values) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            Params.of(ps).addAll(values);
            List<R> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(reader.read(rs));
                }
            }
            return out;
        } catch (SQLException e) {
            throw translate(what, e);
        }
    }

    /** Runs a write with bound values, e.g. INSERT ... SELECT. */
    void update(String sql, Object... values) {
        execute(dataSource, "writing " + codec.table(), sql, values);
    }

    /** Runs a write with bound values on {@code dataSource}; a failure names {@code what}. */
    static void execute(DataSource dataSource, String what, String sql, Object... values) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            Params.of(ps).addAll(values);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw translate(what, e);
        }
    }

    /** Where this table is read and written. */
    DataSource dataSource() {
        return dataSource;
    }

    /** The table's name in SQL. */
    String table() {
        return codec.table();
    }

    List<String> columns() {
        return codec.columns();
    }

    /** Classifies a driver failure: a ClickHouse error code means the statement was rejected. */
    static StoreException translate(String what, SQLException e) {
        int code = e.getErrorCode();
        if (code > 0) {
            return new StoreQueryException(what + " failed with ClickHouse code " + code + ": " + e.getMessage(),
                    code, e);
        }
        return new StoreUnavailableException(what + " failed, ClickHouse unreachable or connection lost: "
                + e.getMessage(), e);
    }

    /** Maps the current row of a result set. */
    @FunctionalInterface
    interface Reader<R> {
        R read(ResultSet rs) throws SQLException;
    }
}
