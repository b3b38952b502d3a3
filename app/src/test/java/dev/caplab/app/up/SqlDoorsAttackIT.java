package dev.caplab.app.up;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code caplab up --token W=read,write --token R=read} attacked with the read token through both SQL doors, port
 * 8123 (as {@code caplab-read}) and {@code /api/v1/sql} (Bearer): every statement that wrote a file on the host, told
 * the host's name, disks or other clients' queries, or took every core, is refused on both, and nothing is written.
 */
class SqlDoorsAttackIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String READ = "reader-token-0123456789";
    private static final String WRITE = "writer-token-0123456789";

    @TempDir
    static Path dataDir;
    @TempDir
    static Path outDir;
    private static EmbeddedStack stack;
    private static String clickhouse;

    @BeforeAll
    static void start() {
        stack = EmbeddedStack.start(new UpSettings(dataDir, "127.0.0.1", 0, 0, 0, false, null,
                List.of(WRITE + "=read,write", READ + "=read")), new PrintStream(new ByteArrayOutputStream()));
        clickhouse = stack.clickhouseJdbcUrl().replaceFirst("^jdbc:clickhouse:", "").replaceFirst("/caplab.*$", "");
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    private static HttpResponse<String> port8123(String statement) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(clickhouse + "/?database=caplab"))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(("caplab-read:" + READ)
                        .getBytes(StandardCharsets.UTF_8)))
                .POST(HttpRequest.BodyPublishers.ofString(statement)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> sqlEndpoint(String statement) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + stack.httpPort() + "/api/v1/sql"))
                .header("Authorization", "Bearer " + READ).header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(statement)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * What {@code curl -d 'SELECT …'} sends: the statement as written under curl's default form content type ('+',
     * '&amp;' and '%' are SQL here, not form syntax).
     */
    @Test
    void curlsDefaultContentTypeCarriesTheStatementAsWritten() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + stack.httpPort()
                        + "/api/v1/sql?format=csv")).header("Authorization", "Bearer " + READ)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("SELECT 1+1 AS two, 'a&b=%41' AS s")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("\"two\",\"s\"\n2,\"a&b=%41\"\n");
    }

    /** Refused on 8123 (403, ACCESS_DENIED) and on the SQL endpoint (400, sql-rejected). */
    private static void refusedOnBothDoors(String statement) throws Exception {
        HttpResponse<String> onPort = port8123(statement);
        assertThat(onPort.statusCode()).as("8123: %s%n%s", statement, onPort.body()).isEqualTo(403);
        assertThat(onPort.headers().firstValue("X-ClickHouse-Exception-Code")).as(statement).contains("497");
        HttpResponse<String> onEndpoint = sqlEndpoint(statement);
        assertThat(onEndpoint.statusCode()).as("/api/v1/sql: %s%n%s", statement, onEndpoint.body()).isEqualTo(400);
        assertThat(onEndpoint.body()).as(statement).contains("sql-rejected");
    }

    @Test
    void intoOutfileAfterAnyStatementWritesNothing() throws Exception {
        Path profile = outDir.resolve("profile");
        Files.writeString(profile, "kept\n");
        List<String> attacks = new ArrayList<>();
        for (String target : List.of("'" + outDir.resolve("caplab-probe") + "'", "'" + profile + "' APPEND")) {
            attacks.add("DESCRIBE TABLE (SELECT 1 AS `probe`) INTO OUTFILE " + target + " FORMAT TSVRaw");
            attacks.add("SHOW TABLES FROM caplab INTO OUTFILE " + target);
            attacks.add("SHOW DATABASES INTO OUTFILE " + target);
            attacks.add("EXPLAIN SELECT 1 INTO OUTFILE " + target);
            attacks.add("SELECT 1 AS `probe` INTO OUTFILE " + target + " FORMAT TSVRaw");
            attacks.add("WITH 1 AS x SELECT x INTO OUTFILE " + target);
        }
        for (String attack : attacks) {
            HttpResponse<String> onPort = port8123(attack);
            assertThat(onPort.statusCode()).as("8123: %s%n%s", attack, onPort.body()).isEqualTo(403);
            HttpResponse<String> onEndpoint = sqlEndpoint(attack);
            assertThat(onEndpoint.statusCode()).as("/api/v1/sql: %s%n%s", attack, onEndpoint.body()).isEqualTo(400);
            // the engine writes while it runs a statement: after the answers a file would already be there
            try (Stream<Path> files = Files.list(outDir)) {
                assertThat(files.map(f -> f.getFileName().toString()).toList()).as(attack).containsExactly("profile");
            }
            assertThat(Files.readString(profile)).as(attack).isEqualTo("kept\n");
        }
    }

    @Test
    void theHostIsToldThroughNeitherDoor() throws Exception {
        for (String attack : List.of("SELECT hostName(), filesystemAvailable()", "SELECT getOSKernelVersion()",
                "SELECT filesystemFree(), filesystemCapacity()", "SELECT getSetting('max_threads')", "SELECT uptime()",
                "SELECT * FROM system.disks", "SELECT path FROM system.disks", "SELECT query FROM system.processes",
                "SELECT 1 WHERE 'x' IN (SELECT query FROM system.processes)",
                "WITH d AS (SELECT path FROM system.disks) SELECT * FROM d")) {
            refusedOnBothDoors(attack);
        }
    }

    @Test
    void everyCoreIsOutOfReachOfBothDoors() throws Exception {
        for (String attack : List.of("SELECT count() FROM numbers_mt(1000000000)",
                "SELECT count() FROM zeros_mt(1000000000)", "SELECT * FROM generateRandom('a UInt8') LIMIT 1",
                "SELECT 1 WHERE 1 IN numbers_mt(10)", "SELECT 1 WHERE 1 IN (SELECT number FROM numbers_mt(10))",
                "WITH z AS (SELECT * FROM zeros_mt(10)) SELECT count() FROM z",
                "SELECT count() FROM runs SETTINGS max_threads = 64")) {
            refusedOnBothDoors(attack);
        }
    }

    @Test
    void whatNotebooksThePageAndJdbcClientsNeedStillWorks() throws Exception {
        String select = "SELECT count() AS n FROM runs WHERE run_id != 'x'";
        assertThat(port8123(select).body()).isEqualTo("0\n");
        HttpResponse<String> endpoint = sqlEndpoint(select);
        assertThat(endpoint.statusCode()).as(endpoint.body()).isEqualTo(200);
        assertThat(endpoint.body()).contains("\"n\"");
        for (String metadata : List.of("SHOW TABLES", "DESCRIBE TABLE runs", "SELECT name FROM system.columns WHERE"
                + " database = 'caplab' AND table = 'runs'", "SELECT table_name FROM information_schema.tables"
                + " WHERE table_schema = 'caplab'")) {
            HttpResponse<String> r = port8123(metadata);
            assertThat(r.statusCode()).as("%s%n%s", metadata, r.body()).isEqualTo(200);
            assertThat(r.body()).as(metadata).contains("run");
        }
        try (Connection c = DriverManager.getConnection(stack.clickhouseJdbcUrl(), "caplab-read", READ);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count() FROM runs")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isZero();
            try (ResultSet columns = c.getMetaData().getColumns(null, "caplab", "runs", "run_id")) {
                assertThat(columns.next()).as("JDBC metadata: the columns of a table").isTrue();
            }
        }
    }
}
