package dev.caplab.app.cli;

import com.zaxxer.hikari.HikariDataSource;
import dev.caplab.store.access.StoreDataSources;
import dev.caplab.store.schema.Migrations;
import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A ClickHouse reached through the JDBC driver: the embedded engine's HTTP interface or a real server. */
public record ClickHouseTarget(String jdbcUrl, String user, String password) {

    private static final Pattern URL = Pattern.compile("jdbc:(?:ch|clickhouse):(?:http[s]?:)?//([^/?]+)(?:/([^?]*))?(\\?.*)?");

    public ClickHouseTarget {
        if (!URL.matcher(jdbcUrl).matches()) {
            throw new IllegalArgumentException("not a ClickHouse JDBC URL: " + jdbcUrl
                    + " (expected jdbc:clickhouse://host:8123/database)");
        }
        user = user == null || user.isBlank() ? "default" : user;
        password = password == null ? "" : password;
    }

    /** The database named in the URL; {@code caplab} when it names none. */
    public String database() {
        String db = matcher().group(2);
        return db == null || db.isBlank() ? Migrations.DEFAULT_DATABASE : db;
    }

    /** {@code http://host:port/} of the same server, for the SQL endpoint's direct HTTP calls. */
    public URI httpUrl() {
        boolean tls = jdbcUrl.contains("https:") || jdbcUrl.contains("ssl=true");
        return URI.create((tls ? "https://" : "http://") + matcher().group(1) + "/");
    }

    /** Creates the database if missing and applies every pending migration. */
    public void migrate() {
        String query = matcher().group(3) == null ? "" : matcher().group(3);
        String serverUrl = jdbcUrl.substring(0, matcher().start(1)) + matcher().group(1) + "/default" + query;
        try (HikariDataSource pool = StoreDataSources.create(serverUrl, user, password)) {
            Migrations.apply(pool, database());
        }
    }

    /** A pooled DataSource on the database. */
    public HikariDataSource dataSource() {
        return StoreDataSources.create(jdbcUrl, user, password);
    }

    /** A pooled DataSource on the database whose statements can never write: for the query API and web page. */
    public HikariDataSource readOnlyDataSource() {
        return StoreDataSources.createReadOnly(jdbcUrl, user, password);
    }

    private Matcher matcher() {
        Matcher m = URL.matcher(jdbcUrl);
        if (!m.matches()) {
            throw new IllegalStateException("unreachable: validated in the constructor");
        }
        return m;
    }
}
