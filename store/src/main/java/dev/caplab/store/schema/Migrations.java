package dev.caplab.store.schema;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Applies the versioned DDL under {@code db/clickhouse/} once each, recording it in {@code schema_migrations}.
 *
 * <p>The DDL uses only features a ClickHouse server has too; tables are created unqualified in the target
 * database, so the same files serve the embedded engine and a server.
 */
public final class Migrations {

    /** Classpath folder of the DDL files. */
    public static final String RESOURCE_DIR = "db/clickhouse/";
    /** The database the application uses unless told otherwise. */
    public static final String DEFAULT_DATABASE = "caplab";
    /** Table recording what was applied. */
    public static final String HISTORY_TABLE = "schema_migrations";

    private static final Pattern FILE_NAME = Pattern.compile("V(\\d{3,})__[a-z0-9_]+\\.sql");

    private Migrations() {
    }

    /** Creates {@code database} if missing and applies every migration not yet recorded; returns those applied. */
    public static List<Migration> apply(DataSource dataSource, String database) {
        return apply(dataSource, database, Integer.MAX_VALUE);
    }

    /** As {@link #apply(DataSource, String)}, up to version {@code last}: a store as an older release left it. */
    static List<Migration> apply(DataSource dataSource, String database, int last) {
        Identifiers.requireSafe("database", database);
        List<Migration> all = load().stream().filter(m -> m.version() <= last).toList();
        List<Migration> applied = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS `" + database + "`");
            c.setSchema(database);
            s.execute("CREATE TABLE IF NOT EXISTS " + HISTORY_TABLE + " (version UInt32, name String,"
                    + " sha256 String, applied_at DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY version");
            Map<Integer, String> done = appliedChecksums(c);
            for (Migration m : all) {
                String previous = done.get(m.version());
                if (previous != null) {
                    if (!previous.equals(m.sha256Hex())) {
                        throw new MigrationException(m.name() + " was applied to " + database + " with checksum "
                                + previous + " but the file now has " + m.sha256Hex()
                                + "; never edit an applied migration, add a new one");
                    }
                    continue;
                }
                run(c, database, m);
                applied.add(m);
            }
        } catch (SQLException e) {
            throw new MigrationException("migrating database " + database + " failed: " + e.getMessage(), e);
        }
        return applied;
    }

    private static void run(Connection c, String database, Migration m) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : m.statements()) {
                try {
                    s.execute(sql);
                } catch (SQLException e) {
                    throw new MigrationException(m.name() + " failed on " + database + " (ClickHouse code "
                            + e.getErrorCode() + "): " + e.getMessage() + "\nstatement: " + sql, e);
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + HISTORY_TABLE
                + " (version, name, sha256, applied_at) VALUES (?, ?, ?, now64(3))")) {
            ps.setInt(1, m.version());
            ps.setString(2, m.name());
            ps.setString(3, m.sha256Hex());
            ps.executeUpdate();
        }
    }

    private static Map<Integer, String> appliedChecksums(Connection c) throws SQLException {
        Map<Integer, String> out = new LinkedHashMap<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT version, sha256 FROM " + HISTORY_TABLE + " ORDER BY version")) {
            while (rs.next()) {
                out.put(rs.getInt(1), rs.getString(2));
            }
        }
        return out;
    }

    /** Reads every migration listed in {@code db/clickhouse/migrations.index}, in version order. */
    public static List<Migration> load() {
        String index = resource("migrations.index");
        List<Migration> out = new ArrayList<>();
        int last = 0;
        for (String line : index.lines().map(String::strip).filter(l -> !l.isEmpty()).toList()) {
            Matcher m = FILE_NAME.matcher(line);
            if (!m.matches()) {
                throw new MigrationException("bad migration file name in index: " + line);
            }
            int version = Integer.parseInt(m.group(1));
            if (version <= last) {
                throw new MigrationException("migration " + line + " is out of order after version " + last);
            }
            last = version;
            String text = resource(line);
            out.add(new Migration(version, line, sha256(text), split(text)));
        }
        return out;
    }

    /** Splits DDL into statements at semicolons ending a line; line comments are dropped. */
    static List<String> split(String text) {
        StringBuilder current = new StringBuilder();
        List<String> out = new ArrayList<>();
        for (String line : text.lines().toList()) {
            String code = line.strip();
            if (code.startsWith("--") || code.isEmpty()) {
                continue;
            }
            current.append(line).append('\n');
            if (code.endsWith(";")) {
                String sql = current.toString().strip();
                out.add(sql.substring(0, sql.length() - 1).strip());
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            throw new MigrationException("statement without terminating semicolon: " + current.toString().strip());
        }
        return out;
    }

    private static String resource(String name) {
        try (InputStream in = Migrations.class.getClassLoader().getResourceAsStream(RESOURCE_DIR + name)) {
            if (in == null) {
                throw new MigrationException("missing classpath resource " + RESOURCE_DIR + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new MigrationException("cannot read " + RESOURCE_DIR + name, e);
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JVM", e);
        }
    }
}
