package dev.caplab.app.up;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * #11 item 1 as a new user meets it: {@code caplab up}, then writes to {@code /write} byte for byte as curl and other
 * clients send them (raw socket, so no HTTP library adds or normalises a header), each counted in ClickHouse. Before
 * the fix, curl's default {@code Content-Type: application/x-www-form-urlencoded} answered 204 and stored nothing.
 */
class RawClientWritesIT {

    private static final long T0_NANOS = 1_700_000_000_000_000_000L;

    @TempDir
    Path dataDir;

    @Test
    void everyClientDefaultContentTypeStoresEveryLine() throws Exception {
        // run id -> {Content-Type or null, Content-Encoding or null, line count}
        Map<String, Object[]> cases = new LinkedHashMap<>();
        cases.put("raw-form", new Object[] {"application/x-www-form-urlencoded", null, 3});
        cases.put("raw-text", new Object[] {"text/plain; charset=utf-8", null, 4});
        cases.put("raw-none", new Object[] {null, null, 5});
        cases.put("raw-octet", new Object[] {"application/octet-stream", null, 6});
        cases.put("raw-gzip", new Object[] {"application/x-www-form-urlencoded", "gzip", 7});
        try (EmbeddedStack stack = EmbeddedStack.start(new UpSettings(dataDir, "127.0.0.1", 0, 0, 0, false, null,
                List.of()), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))) {
            // InfluxDB 1.x documentation's example, as `curl -i -XPOST 'http://localhost:8086/write?db=mydb'
            // --data-binary 'cpu_load_short,host=server01,region=us-west value=0.64 1434055562000000000'` sends it
            byte[] docLine = "cpu_load_short,host=server01,region=us-west value=0.64 1434055562000000000"
                    .getBytes(StandardCharsets.UTF_8);
            assertThat(curl(stack.httpPort(), "/write?db=raw-doc", "application/x-www-form-urlencoded", null, docLine))
                    .startsWith("HTTP/1.1 204");
            for (Map.Entry<String, Object[]> c : cases.entrySet()) {
                String contentType = (String) c.getValue()[0];
                String encoding = (String) c.getValue()[1];
                byte[] body = lines(c.getKey(), (Integer) c.getValue()[2]);
                String status = curl(stack.httpPort(), "/write?db=" + c.getKey() + "&precision=ns", contentType,
                        encoding, encoding == null ? body : gzip(body));
                assertThat(status).as(c.getKey()).startsWith("HTTP/1.1 204");
            }

            // DNS rebinding: a page on evil.example, its name rebound to 127.0.0.1, is same-origin to the browser,
            // but its requests say which name they were addressed to
            int port = stack.httpPort();
            assertThat(raw(port, "POST /write?db=raw-rebound HTTP/1.1", "evil.example:" + port,
                    "Origin: http://evil.example:" + port + "\r\nContent-Type: text/plain\r\n", lines("raw-rebound", 2)))
                    .startsWith("HTTP/1.1 403").contains("is not a name of this server");
            assertThat(raw(port, "GET /api/v1/runs HTTP/1.1", "evil.example:" + port, "", new byte[0]))
                    .startsWith("HTTP/1.1 403");
            assertThat(raw(port, "GET /api/v1/runs HTTP/1.1", "localhost:" + port, "", new byte[0]))
                    .startsWith("HTTP/1.1 200");

            Map<String, Long> expected = new LinkedHashMap<>();
            expected.put("raw-rebound", 0L);
            expected.put("raw-doc", 1L);
            cases.forEach((run, c) -> expected.put(run, (long) (Integer) c[2]));
            assertThat(awaitCounts(stack, expected)).isEqualTo(expected);
        }
    }

    /** Lines with '&' and '=' so that a form parser would have split them into parameters. */
    private static byte[] lines(String run, int count) {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < count; i++) {
            body.append("http_req_duration,host=lg&1,url=/a?b\\=c value=").append(10 + i).append(' ')
                    .append(T0_NANOS + i * 1_000_000_000L).append('\n');
        }
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The request curl 7.88.1 sends for {@code curl -XPOST URL --data-binary @file [-H ...]}; returns the status line. */
    private static String curl(int port, String target, String contentType, String encoding, byte[] body)
            throws IOException {
        StringBuilder headers = new StringBuilder();
        if (encoding != null) {
            headers.append("Content-Encoding: ").append(encoding).append("\r\n");
        }
        if (contentType != null) {
            headers.append("Content-Type: ").append(contentType).append("\r\n");
        }
        return raw(port, "POST " + target + " HTTP/1.1", "127.0.0.1:" + port, headers.toString(), body);
    }

    /** One HTTP/1.1 request as curl 7.88.1 frames it, addressed to {@code host}; returns the whole response. */
    private static String raw(int port, String requestLine, String host, String headers, byte[] body)
            throws IOException {
        StringBuilder head = new StringBuilder()
                .append(requestLine).append("\r\n")
                .append("Host: ").append(host).append("\r\n")
                .append("User-Agent: curl/7.88.1\r\n")
                .append("Accept: */*\r\n")
                .append(headers);
        if (body.length > 0) {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("Connection: close\r\n\r\n");
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) Duration.ofSeconds(60).toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return response;
        }
    }

    private static Map<String, Long> awaitCounts(EmbeddedStack stack, Map<String, Long> expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        Map<String, Long> counts = Map.of();
        while (System.nanoTime() < deadline) {
            counts = counts(stack, expected);
            if (counts.equals(expected)) {
                return counts;
            }
            Thread.sleep(500);
        }
        return counts;
    }

    private static Map<String, Long> counts(EmbeddedStack stack, Map<String, Long> runs) throws Exception {
        Map<String, Long> counts = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection(stack.clickhouseJdbcUrl(), "default", "");
             Statement s = c.createStatement()) {
            for (String run : runs.keySet()) {
                try (ResultSet rs = s.executeQuery("SELECT count() FROM samples WHERE run_id = '" + run + "'")) {
                    rs.next();
                    counts.put(run, rs.getLong(1));
                }
            }
        }
        return counts;
    }

    private static byte[] gzip(byte[] body) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(body);
        }
        return out.toByteArray();
    }
}
