package dev.caplab.store.http;

import com.clickhouse.client.api.Client;
import com.clickhouse.data.ClickHouseFormat;
import dev.caplab.store.engine.ChdbEngine;
import dev.caplab.store.testing.EmbeddedClickHouse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** ClickHouse's HTTP protocol as plain clients (curl-like requests, client-v2) use it against the embedded engine. */
class ClickHouseHttpServerIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static EmbeddedClickHouse clickHouse;
    private static ChdbEngine engine;

    @BeforeAll
    static void start() {
        clickHouse = EmbeddedClickHouse.sharedEmbedded();
        engine = clickHouse.engine().orElseThrow();
        engine.query("CREATE DATABASE IF NOT EXISTS http_it", "TabSeparated");
        engine.query("CREATE TABLE IF NOT EXISTS http_it.bin (id UInt32, s String) ENGINE = MergeTree ORDER BY id",
                "TabSeparated");
    }

    /** A request with caplab's own credential, in the headers ClickHouse clients use. */
    private static HttpRequest.Builder asCaplab(URI uri) {
        return HttpRequest.newBuilder(uri).header("X-ClickHouse-User", clickHouse.user())
                .header("X-ClickHouse-Key", clickHouse.password());
    }

    private static HttpResponse<String> post(String urlQuery, String body) throws Exception {
        return HTTP.send(asCaplab(URI.create(clickHouse.httpUrl() + "/" + urlQuery))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String q(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    @Test
    void pingAndEmptyGetAnswerOk() throws Exception {
        for (String path : new String[] {"/ping", "/"}) {
            HttpResponse<String> r = HTTP.send(asCaplab(URI.create(clickHouse.httpUrl() + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("Ok.\n");
        }
    }

    @Test
    void selectFormatJsonEachRowFromAGetQueryParameter() throws Exception {
        HttpResponse<String> r = HTTP.send(asCaplab(URI.create(clickHouse.httpUrl() + "/?query="
                + q("SELECT toUInt8(number) AS n, toString(number) AS s FROM system.numbers LIMIT 2 FORMAT JSONEachRow")))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("{\"n\":0,\"s\":\"0\"}\n{\"n\":1,\"s\":\"1\"}\n");
        assertThat(r.headers().firstValue("X-ClickHouse-Query-Id")).isPresent();
    }

    @Test
    void paramsDefaultFormatAndSettingsComeFromTheUrl() throws Exception {
        HttpResponse<String> r = post("?default_format=CSV&param_who=" + q("O'Brien \\ ü") + "&param_n=41"
                + "&max_result_rows=7", "SELECT {who:String}, {n:UInt8} + 1, getSetting('max_result_rows')");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("\"O'Brien \\ ü\",42,7\n");
        assertThat(post("", "SELECT getSetting('max_result_rows')").body())
                .as("a setting lasts one request, as on a server without session_id").isEqualTo("0\n");
    }

    @Test
    void aSetStatementLastsOneRequestOnEitherConnection() throws Exception {
        for (String url : new String[] {"", "?readonly=1"}) {
            assertThat(post(url, "SET max_result_rows = 3, max_block_size = 1234").statusCode()).isEqualTo(200);
            assertThat(post(url, "SELECT getSetting('max_result_rows'), getSetting('max_block_size')").body())
                    .as("after SET on %s", url.isEmpty() ? "read-write" : "read-only")
                    .isEqualTo("0\t" + post(url, "SELECT getSetting('max_block_size')").body());
        }
        HttpResponse<String> r = post("?readonly=1", "SET readonly = 0");
        assertThat(r.headers().firstValue("X-ClickHouse-Exception-Code")).contains("36");
        assertThat(r.body()).contains("pass readonly=1 as a URL parameter");
    }

    @Test
    void theDatabaseComesFromTheUrlOrTheHeader() throws Exception {
        assertThat(post("?database=http_it", "SELECT currentDatabase()").body()).isEqualTo("http_it\n");
        HttpResponse<String> r = HTTP.send(asCaplab(URI.create(clickHouse.httpUrl() + "/"))
                .header("X-ClickHouse-Database", "system").POST(HttpRequest.BodyPublishers.ofString(
                        "SELECT currentDatabase()")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.body()).isEqualTo("system\n");
        assertThat(post("", "SELECT currentDatabase()").body()).isEqualTo("default\n");
    }

    @Test
    void errorsCarryTheCodeHeaderAndClickHouseBody() throws Exception {
        HttpResponse<String> r = post("", "SELEC 1");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.headers().firstValue("X-ClickHouse-Exception-Code")).contains("62");
        assertThat(r.body()).startsWith("Code: 62. DB::Exception: Syntax error");
        HttpResponse<String> unknown = post("?database=no_such_db", "SELECT 1");
        assertThat(unknown.headers().firstValue("X-ClickHouse-Exception-Code")).contains("81");
    }

    @Test
    void readonlyRequestsCannotWrite() throws Exception {
        HttpResponse<String> r = post("?readonly=1", "CREATE TABLE http_it.ro (a Int8) ENGINE = Memory");
        assertThat(r.headers().firstValue("X-ClickHouse-Exception-Code")).contains("164");
        assertThat(post("?readonly=1", "SELECT 1; DROP TABLE http_it.bin").headers()
                .firstValue("X-ClickHouse-Exception-Code")).contains("164");
        assertThat(post("?readonly=1", "SELECT 1").body())
                .as("the failed statement's partial output does not leak into the next result").isEqualTo("1\n");
        assertThat(post("", "EXISTS TABLE http_it.bin").body()).isEqualTo("1\n");
    }

    @Test
    void aRowBinaryBodyWithTheQueryInTheUrlIsInsertedWhole() throws Exception {
        // 3000 rows: ids 2570.. encode as 0x0A 0x0A, the empty line that cut inline data short.
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int i = 0; i < 3000; i++) {
            body.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(i).array());
            body.write(2);
            body.write('\n');
            body.write('\n');
        }
        HttpResponse<String> r = HTTP.send(asCaplab(URI.create(clickHouse.httpUrl() + "/?query="
                + q("INSERT INTO http_it.bin (id, s) FORMAT RowBinary"))).POST(
                HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(post("", "SELECT count(), countIf(s = '\\n\\n'), max(id) FROM http_it.bin WHERE id < 3000").body())
                .isEqualTo("3000\t3000\t2999\n");
    }

    @Test
    void aGzipBodyWithQueryAndDataIsDecodedAndInserted() throws Exception {
        engine.query("CREATE TABLE IF NOT EXISTS http_it.tsv (id UInt32, s String) ENGINE = MergeTree ORDER BY id",
                "TabSeparated");
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write("INSERT INTO http_it.tsv FORMAT TSV\n1\tone\n2\t\n3\tthree\n".getBytes(StandardCharsets.UTF_8));
        }
        HttpResponse<String> r = HTTP.send(asCaplab(URI.create(clickHouse.httpUrl() + "/"))
                .header("Content-Encoding", "gzip").POST(HttpRequest.BodyPublishers.ofByteArray(gz.toByteArray()))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(post("", "SELECT groupArray(s) FROM (SELECT s FROM http_it.tsv ORDER BY id)").body())
                .isEqualTo("['one','','three']\n");
    }

    @Test
    void clientV2InsertApiSendsItsBinaryBodyThrough() throws Exception {
        engine.query("CREATE TABLE IF NOT EXISTS http_it.v2 (id UInt32, s String) ENGINE = MergeTree ORDER BY id",
                "TabSeparated");
        try (Client client = new Client.Builder().addEndpoint(clickHouse.httpUrl()).setUsername(clickHouse.user())
                .setPassword(clickHouse.password()).compressServerResponse(false).setDefaultDatabase("http_it").build()) {
            String rows = "{\"id\":1,\"s\":\"a\"}\n{\"id\":2,\"s\":\"\"}\n\n{\"id\":3,\"s\":\"c\"}\n";
            client.insert("v2", new ByteArrayInputStream(rows.getBytes(StandardCharsets.UTF_8)),
                    ClickHouseFormat.JSONEachRow).get();
        }
        assertThat(post("", "SELECT count() FROM http_it.v2").body()).isEqualTo("3\n");
    }

    @Test
    void aCompressedResponseRequestIsRefusedWithTheFix() throws Exception {
        HttpResponse<String> r = post("?compress=1", "SELECT 1");
        assertThat(r.headers().firstValue("X-ClickHouse-Exception-Code")).contains("36");
        assertThat(r.body()).contains("compress=0");
    }

    @Test
    void credentialsAreCheckedWhenConfigured() throws Exception {
        try (ClickHouseHttpServer secured = ClickHouseHttpServer.start(engine, HttpSettings.defaults().withPort(0)
                .withInternal(new Credential("caplab", "s3cret"))
                .withReaders(TestReaderTokens.readOnly("read-token-0123456789", "write-token-0123456789"), false))) {
            URI uri = URI.create(secured.httpUrl() + "/");
            HttpResponse<String> anonymous = HTTP.send(HttpRequest.newBuilder(uri)
                    .POST(HttpRequest.BodyPublishers.ofString("SELECT 1")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(anonymous.statusCode()).isEqualTo(401);
            assertThat(anonymous.headers().firstValue("X-ClickHouse-Exception-Code")).contains("516");
            String basic = Base64.getEncoder().encodeToString("caplab:s3cret".getBytes(StandardCharsets.UTF_8));
            HttpResponse<String> ok = HTTP.send(HttpRequest.newBuilder(uri).header("Authorization", "Basic " + basic)
                    .POST(HttpRequest.BodyPublishers.ofString("SELECT 1")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(ok.body()).isEqualTo("1\n");
            // readers' passwords go through the access module's token check: a read token reads, a write token not
            for (String token : new String[] {"read-token-0123456789", "write-token-0123456789"}) {
                String reader = Base64.getEncoder().encodeToString((HttpSettings.READER_USER + ":" + token)
                        .getBytes(StandardCharsets.UTF_8));
                HttpResponse<String> asReader = HTTP.send(HttpRequest.newBuilder(uri)
                        .header("Authorization", "Basic " + reader).POST(HttpRequest.BodyPublishers.ofString("SELECT 1"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                // authenticated or not is the point here (the default reader database does not exist in this engine)
                assertThat(asReader.statusCode() == 401).as(token + ": " + asReader.body())
                        .isEqualTo(token.startsWith("write"));
            }
        }
    }

    @Test
    void untilOpenedToReadersOnlyCaplabsOwnCredentialIsServed() throws Exception {
        try (ClickHouseHttpServer starting = ClickHouseHttpServer.startClosedToReaders(engine, HttpSettings.defaults()
                .withPort(0).withInternal(new Credential("caplab", "s3cret"))
                .withReaders(TestReaderTokens.readOnly("read-token-0123456789", "write-token-0123456789"), true)
                .withReaderLimits(ReaderLimits.defaults("http_it")))) {
            URI root = URI.create(starting.httpUrl() + "/");
            String basic = Base64.getEncoder().encodeToString("caplab:s3cret".getBytes(StandardCharsets.UTF_8));
            HttpRequest ping = HttpRequest.newBuilder(URI.create(starting.httpUrl() + "/ping")).build();
            HttpRequest asReader = HttpRequest.newBuilder(root)
                    .POST(HttpRequest.BodyPublishers.ofString("SELECT count() FROM bin")).build();
            HttpRequest asCaplab = HttpRequest.newBuilder(root).header("Authorization", "Basic " + basic)
                    .POST(HttpRequest.BodyPublishers.ofString("SELECT count() FROM http_it.bin")).build();

            HttpResponse<String> pingBefore = HTTP.send(ping, HttpResponse.BodyHandlers.ofString());
            assertThat(pingBefore.statusCode()).isEqualTo(503);
            assertThat(pingBefore.headers().firstValue("Retry-After")).contains("2");
            HttpResponse<String> readerBefore = HTTP.send(asReader, HttpResponse.BodyHandlers.ofString());
            assertThat(readerBefore.statusCode()).isEqualTo(503);
            assertThat(readerBefore.headers().firstValue("X-ClickHouse-Exception-Code")).contains("1002");
            assertThat(readerBefore.body()).contains("schema migrations").doesNotContain("UNKNOWN_TABLE");
            assertThat(HTTP.send(asCaplab, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);

            starting.openToReaders();
            HttpResponse<String> pingAfter = HTTP.send(ping, HttpResponse.BodyHandlers.ofString());
            assertThat(pingAfter.statusCode()).isEqualTo(200);
            assertThat(pingAfter.body()).isEqualTo("Ok.\n");
            HttpResponse<String> readerAfter = HTTP.send(asReader, HttpResponse.BodyHandlers.ofString());
            assertThat(readerAfter.statusCode()).as(readerAfter.body()).isEqualTo(200);
        }
    }

    @Test
    void aPortInUseIsNamedInTheError() throws IOException {
        int taken = java.net.URI.create(clickHouse.httpUrl()).getPort();
        assertThatThrownBy(() -> ClickHouseHttpServer.start(engine, HttpSettings.defaults().withPort(taken)))
                .isInstanceOf(ServerStartException.class).hasMessageContaining("port " + taken + " is already in use");
    }
}
