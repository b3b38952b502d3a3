package dev.caplab.app.up;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.broker.KafkaProbe;
import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.schema.topic.TopicCatalog;
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
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code caplab up} as one JVM: HTTP ingest lands in ClickHouse through Kafka, and survives a restart. */
class EmbeddedStackIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dataDir;

    @Test
    void ingestedLinesReachClickHouseAndSurviveARestart() throws Exception {
        UpSettings settings = new UpSettings(dataDir, "127.0.0.1", 0, 0, 0, false, null, List.of());
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        long expected = 50;
        try (EmbeddedStack stack = EmbeddedStack.start(settings, new PrintStream(printed, true, StandardCharsets.UTF_8))) {
            assertThat(printed.toString(StandardCharsets.UTF_8))
                    .contains("Kafka (KRaft, in-process)").contains("ClickHouse (chDB) HTTP").contains("web page");
            assertThat(get(stack, "/api/v1/health").body()).contains("\"status\":\"UP\"")
                    .contains("\"broker\"", "\"streams\"", "\"sink\"", "\"clickhouse\"");
            assertThat(stack.roleStatuses()).allMatch(dev.caplab.schema.health.RoleStatus::up);

            HttpResponse<String> write = write(stack, expected, null);
            assertThat(write.statusCode()).as(write.body()).isEqualTo(204);

            assertThat(awaitSampleCount(stack, expected, "default", "")).isEqualTo(expected);
        }

        try (EmbeddedStack restarted = EmbeddedStack.start(settings, new PrintStream(new ByteArrayOutputStream()))) {
            assertThat(sampleCount(restarted, "default", "")).isEqualTo(expected);
        }
    }

    @Test
    void withTokensKafkaTakesOnlySaslWhileCaplabsOwnRolesStillCarryAWriteToClickHouse() throws Exception {
        String token = "it-write-token-0123456789";
        UpSettings settings = new UpSettings(dataDir, "127.0.0.1", 0, 0, 0, false, null, List.of(token + "=read,write"));
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        long expected = 20;
        try (EmbeddedStack stack = EmbeddedStack.start(settings, new PrintStream(printed, true, StandardCharsets.UTF_8))) {
            String bootstrap = stack.bootstrapServers();

            // Anyone on the host without the token is refused at the Kafka port; a tool given it gets in.
            assertThat(KafkaProbe.produce(bootstrap, KafkaClientSecurity.NONE, TopicCatalog.SAMPLES, "forged"))
                    .isInstanceOf(TimeoutException.class);
            assertThat(KafkaProbe.consume(bootstrap, KafkaClientSecurity.NONE, TopicCatalog.SAMPLES))
                    .isInstanceOf(TimeoutException.class);
            assertThat(KafkaProbe.consume(bootstrap, KafkaClientSecurity.plain("caplab", "wrong-token-0123456789"),
                    TopicCatalog.SAMPLES)).isInstanceOf(SaslAuthenticationException.class);
            assertThat(KafkaProbe.read(bootstrap, KafkaClientSecurity.plain(EmbeddedKafkaAccess.EXTERNAL_USER, token),
                    TopicCatalog.CONCLUSIONS)).isNull();

            // caplab's own roles (HTTP ingest's producer, streams, the sink) log in as users of their own, each
            // allowed only its ACLs: the samples reach ClickHouse, and streams, seeing samples of a run nobody
            // started, writes that run's inferred start to the lifecycle topic, which the sink stores too.
            HttpResponse<String> write = write(stack, expected, token);
            assertThat(write.statusCode()).as(write.body()).isEqualTo(204);
            // with tokens, 8123 serves readers only with a read token as caplab-read's password
            assertThat(awaitSampleCount(stack, expected, "caplab-read", token)).isEqualTo(expected);
            assertThat(awaitCount(stack, "SELECT uniqExact(run_id) FROM runs WHERE run_id = 'it-run'", 1, "caplab-read", token))
                    .isEqualTo(1);
            assertThat(stack.roleStatuses()).allMatch(dev.caplab.schema.health.RoleStatus::up);
            // the health page's broker probe logs in as ingest's user, which needs no ACL to describe the cluster
            assertThat(get(stack, "/api/v1/health").body()).contains("\"status\":\"UP\"")
                    .contains("broker(s) reachable");
            assertThat(printed.toString(StandardCharsets.UTF_8)).contains("SASL/PLAIN and ACLs required")
                    .doesNotContain(token);
        }
    }

    @Test
    void onEveryAddressKafkaSpeaksOnlySaslSslAndTheRolesStillCarryAWriteToClickHouse() throws Exception {
        String token = "it-tls-write-token-0123456789";
        UpSettings settings = new UpSettings(dataDir, "0.0.0.0", 0, 0, 0, false, null, List.of(token + "=read,write"));
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        long expected = 20;
        try (EmbeddedStack stack = EmbeddedStack.start(settings, new PrintStream(printed, true, StandardCharsets.UTF_8))) {
            String bootstrap = stack.bootstrapServers();
            Path certificate = dataDir.resolve("kafka-tls").resolve("broker-cert.pem");
            // advertised under this machine's name (Kafka refuses 0.0.0.0), which the certificate names
            assertThat(bootstrap).startsWith(java.net.InetAddress.getLocalHost().getHostName() + ":");
            assertThat(printed.toString(StandardCharsets.UTF_8)).contains("SASL_SSL").contains(certificate.toString())
                    .doesNotContain(token);

            KafkaClientSecurity tools = KafkaClientSecurity.plain(EmbeddedKafkaAccess.EXTERNAL_USER, token);
            assertThat(KafkaProbe.read(bootstrap, tools.trusting(certificate), TopicCatalog.CONCLUSIONS)).isNull();
            // the token in clear never reaches the broker: the listener wants a TLS handshake first
            assertThat(KafkaProbe.read(bootstrap, tools, TopicCatalog.CONCLUSIONS)).isNotNull();

            // HTTP ingest, streams and the sink all log in over TLS, trusting the broker's certificate
            HttpResponse<String> write = write(stack, expected, token);
            assertThat(write.statusCode()).as(write.body()).isEqualTo(204);
            assertThat(awaitSampleCount(stack, expected, "caplab-read", token)).isEqualTo(expected);
            assertThat(awaitCount(stack, "SELECT uniqExact(run_id) FROM runs WHERE run_id = 'it-run'", 1, "caplab-read",
                    token)).isEqualTo(1);
            assertThat(stack.roleStatuses()).allMatch(dev.caplab.schema.health.RoleStatus::up);
        }
    }

    /** Writes {@code lines} cpu samples of run it-run through /write, with the token when one is given. */
    private static HttpResponse<String> write(EmbeddedStack stack, long lines, String token) throws Exception {
        StringBuilder body = new StringBuilder();
        long t0 = 1_700_000_000_000_000_000L;
        for (int i = 0; i < lines; i++) {
            body.append("cpu,host=sut-1,run=it-run usage=").append(i * 0.5).append(' ').append(t0 + i * 1_000_000_000L).append('\n');
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(stack, "/write?db=it-run"))
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static final String SAMPLE_COUNT = "SELECT count() FROM samples WHERE run_id = 'it-run'";

    private static long awaitSampleCount(EmbeddedStack stack, long expected, String user, String password) throws Exception {
        return awaitCount(stack, SAMPLE_COUNT, expected, user, password);
    }

    /** Polls a count query until it reaches {@code expected} or two minutes pass; the last count. */
    private static long awaitCount(EmbeddedStack stack, String sql, long expected, String user, String password)
            throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        long count = 0;
        while (System.nanoTime() < deadline) {
            count = count(stack, sql, user, password);
            if (count >= expected) {
                return count;
            }
            Thread.sleep(500);
        }
        return count;
    }

    private static long sampleCount(EmbeddedStack stack, String user, String password) throws Exception {
        return count(stack, SAMPLE_COUNT, user, password);
    }

    private static long count(EmbeddedStack stack, String sql, String user, String password) throws Exception {
        try (Connection c = DriverManager.getConnection(stack.clickhouseJdbcUrl(), user, password);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static HttpResponse<String> get(EmbeddedStack stack, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri(stack, path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(EmbeddedStack stack, String path) {
        return URI.create("http://127.0.0.1:" + stack.httpPort() + path);
    }
}
