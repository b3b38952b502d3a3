package dev.caplab.app.up;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code caplab up --token}: the embedded ClickHouse port asks for credentials (issue #12, finding 3), while
 * caplab's own roles and the SQL endpoint keep working through their own credentials.
 */
class EmbeddedClickHousePortIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String READ = "reader-token-0123456789";
    private static final String WRITE = "writer-token-0123456789";

    @TempDir
    Path dataDir;

    @Test
    void withTokensPort8123AdmitsOnlyReadersWithAReadTokenAndCaplabStillWorks() throws Exception {
        UpSettings settings = new UpSettings(dataDir, "127.0.0.1", 0, 0, 0, false, null,
                List.of(READ + "=read", WRITE + "=write"));
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (EmbeddedStack stack = EmbeddedStack.start(settings, new PrintStream(printed, true, StandardCharsets.UTF_8))) {
            String out = printed.toString(StandardCharsets.UTF_8);
            assertThat(out).contains("caplab-read");
            String base = stack.clickhouseJdbcUrl().replaceFirst("^jdbc:clickhouse:", "").replaceFirst("/caplab.*$", "");

            HttpResponse<String> anonymous = post(base + "/?database=caplab", "SELECT count() FROM runs", null);
            assertThat(anonymous.statusCode()).isEqualTo(401);
            assertThat(post(base + "/", "SELECT 1", "caplab-read:" + WRITE).statusCode())
                    .as("a write-only token does not read").isEqualTo(401);
            assertThat(post(base + "/?database=caplab", "SELECT count() FROM runs", "caplab-read:" + READ).body())
                    .isEqualTo("0\n");
            assertThat(post(base + "/?database=caplab", "INSERT INTO runs (run_id) VALUES ('forged')",
                    "caplab-read:" + READ).statusCode()).isIn(400, 403);
            assertThat(post(base + "/?database=caplab", "SELECT count() FROM runs", "caplab-read:" + READ).body())
                    .as("nothing forged").isEqualTo("0\n");

            try (Connection c = DriverManager.getConnection(stack.clickhouseJdbcUrl(), "caplab-read", READ);
                 Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count() FROM runs")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isZero();
            }
            try (Connection c = DriverManager.getConnection(stack.clickhouseJdbcUrl(), "default", "");
                 Statement s = c.createStatement()) {
                s.executeQuery("SELECT 1");
                throw new AssertionError("anonymous JDBC read succeeded with tokens set");
            } catch (SQLException expected) {
                assertThat(expected.getMessage()).contains("516");
            }

            // The SQL endpoint reads 8123 with its own reader credential: with a read token it answers.
            HttpResponse<String> sql = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                            + stack.httpPort() + "/api/v1/sql")).header("Authorization", "Bearer " + READ)
                    .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(
                            "SELECT count() AS n FROM runs")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(sql.statusCode()).as(sql.body()).isEqualTo(200);
            assertThat(sql.body()).contains("0");

            // One token type for every port: the read token queries but cannot ingest, the write token ingests but
            // cannot query — the same answers port 8123 gave them above, from the same authenticator.
            String event = "{\"runId\":\"token-check\",\"samples\":[{\"timestamp\":\"2026-06-01T00:00:00Z\","
                    + "\"source\":\"s\",\"metric\":\"m\",\"value\":1}]}";
            HttpResponse<String> readIngests = api(stack, "/api/v1/events", READ, event);
            assertThat(readIngests.statusCode()).as("a read-only token ingests").isEqualTo(403);
            assertThat(readIngests.body()).contains("lacks the 'write' scope");
            assertThat(api(stack, "/api/v1/runs", READ, null).statusCode()).isEqualTo(200);
            HttpResponse<String> writeQueries = api(stack, "/api/v1/runs", WRITE, null);
            assertThat(writeQueries.statusCode()).as("a write-only token queries").isEqualTo(403);
            assertThat(writeQueries.body()).contains("lacks the 'read' scope");
            assertThat(api(stack, "/api/v1/events", WRITE, event).statusCode()).isEqualTo(202);
        }
    }

    /** A GET, or a POST of {@code json}, to caplab's HTTP port with a Bearer token. */
    private static HttpResponse<String> api(EmbeddedStack stack, String path, String token, String json)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + stack.httpPort() + path))
                .header("Authorization", "Bearer " + token);
        b = json == null ? b.GET() : b.header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String url, String body, String basic) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (basic != null) {
            b.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(basic.getBytes(StandardCharsets.UTF_8)));
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
