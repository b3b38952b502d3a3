package dev.caplab.store.access;

import com.clickhouse.client.api.ClientException;
import com.clickhouse.client.api.ServerException;
import com.clickhouse.jdbc.StatementImpl;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Batch insert and filtered select for one table, shared by every repository so none re-implements JDBC. */
final class TableAccess<T> {

    private static final java.util.regex.Pattern TOKEN = java.util.regex.Pattern.compile("[\\x20-\\x7E]{1,256}");

    private final DataSource dataSource;
    private final RowCodec<T> codec;
    private final String insertSql;
    private final String selectSql;

    TableAccess(DataSource dataSource, RowCodec<T> codec) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.codec = codec;
        String cols = String.join(", ", codec.columns());
        this.insertSql = "INSERT INTO " + codec.table() + " (" + cols + ") VALUES ("
                + String.join(", ", java.util.Collections.nCopies(codec.columns().size(), "?")) + ")";
        this.selectSql = "SELECT " + cols + " FROM " + codec.table() + (codec.replacing() ? " FINAL" : "");
    }

    /**
     * Inserts {@code rows} as one batch. A non-null {@code dedupToken} makes a retry of the same batch a no-op
     * (ClickHouse's insert_deduplication_token); it travels as a setting, never inside the SQL text.
     */
    int insertBatch(List<T> rows, String dedupToken) {
        Objects.requireNonNull(rows, "rows");
        if (rows.isEmpty()) {
            return 0;
        }
        if (dedupToken != null && !TOKEN.matcher(dedupToken).matches()) {
            throw new IllegalArgumentException("dedupToken must be 1-256 printable ASCII characters");
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(insertSql)) {
            if (dedupToken != null) {
                ps.unwrap(StatementImpl.class).getLocalSettings()
                        .serverSetting("insert_deduplication_token", dedupToken);
            }
            Params params = new Params(ps);
            for (T row : rows) {
                params.reset();
                codec.writer().write(params, row);
                ps.addBatch();
            }
            ps.executeBatch();
            return rows.size();
        } catch (SQLException e) {
            throw translate("inserting " + rows.size() + " rows into " + codec.table(), e);
        } catch (ServerException e) {
            // The driver's RowBinary writer lets client-v2's unchecked exceptions through instead of SQLException.
            throw new StoreQueryException("inserting " + rows.size() + " rows into " + codec.table()
                    + " failed with ClickHouse code " + e.getCode() + ": " + e.getMessage(), e.getCode(), e);
        } catch (ClientException e) {
            throw new StoreUnavailableException("inserting " + rows.size() + " rows into " + codec.table()
                    + " failed, ClickHouse unreachable or connection lost: " + e.getMessage(), e);
        }
    }

    /** Rows matching {@code where} (placeholders bound from {@code values}), in {@code orderBy} order. */
    List<T> select(String where, String orderBy, Object... values) {
        String sql = selectSql + (where.isEmpty() ? "" : " WHERE " + where)
                + (orderBy.isEmpty() ? "" : " ORDER BY " + orderBy);
        return query(sql, codec.reader(), values);
    }

    /** Runs a read with bound values and maps each row. */
    <R> List<R> query(String sql, Reader<R> reader, Object... values) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            new Params(ps).addAll(values);
            List<R> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(reader.read(rs));
                }
            }
            return out;
        } catch (SQLException e) {
            throw translate("reading " + codec.table(), e);
        }
    }

    /** Runs a write with bound values, e.g. INSERT ... SELECT. */
    void update(String sql, Object... values) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            new Params(ps).addAll(values);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw translate("writing " + codec.table(), e);
        }
    }

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
