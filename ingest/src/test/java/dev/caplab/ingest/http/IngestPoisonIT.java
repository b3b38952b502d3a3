package dev.caplab.ingest.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.broker.BrokerSettings;
import dev.caplab.broker.EmbeddedKafkaBroker;
import dev.caplab.ingest.publish.CommittedRecords;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Each poison input of issue #11 over HTTP against the real broker: 400 naming the line and field, nothing of the
 * bad line in Kafka (read read_committed, as streams and the sink read), and the valid lines around it stored once.
 */
@SpringBootTest(classes = IngestPoisonIT.App.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class IngestPoisonIT {

    private static final String WRITER = "it-writer-secret-0123456789";
    /** 2025-12-03T12:00:00Z in seconds: inside the accepted window whatever day the test runs. */
    private static final long T = 1_764_763_200L;
    private static EmbeddedKafkaBroker broker;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(IngestHttpConfiguration.class)
    static class App {
    }

    @DynamicPropertySource
    static void ingestProperties(DynamicPropertyRegistry registry) throws IOException {
        Path dataDir = Files.createTempDirectory("caplab-poison-it");
        broker = EmbeddedKafkaBroker.start(BrokerSettings.loopback(dataDir, 0));
        registry.add("caplab.ingest.bootstrap-servers", broker::bootstrapServers);
        registry.add("caplab.access.tokens[0].name", () -> "k6");
        registry.add("caplab.access.tokens[0].secret", () -> WRITER);
        registry.add("caplab.access.tokens[0].scopes", () -> "write");
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void blankDbIsRefusedAndNothingIsPublished() throws Exception {
        HttpResponse<String> response = write("/write?db=%20&precision=s", "cpu value=1 " + T + "\n");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("line 1, field db: must not be blank");
        assertThat(samples(" ")).isEmpty();
    }

    @Test
    void blankRunSourceAndMeasurementAreRefusedAroundStoredValidLines() throws Exception {
        String run = "run-" + UUID.randomUUID();
        HttpResponse<String> response = write("/write?precision=s&db=" + run, valid(run, 1)
                + "cpu,run=\\  value=1 " + T + "\n"
                + "cpu,source=\\  value=1 " + T + "\n"
                + "\\  value=1 " + T + "\n"
                + valid(run, 2));
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("line 2, field run: must not be blank")
                .contains("line 3, field source: must not be blank")
                .contains("line 4, field measurement: must not be blank")
                .contains("rejected lines: 2-4").contains("accepted=2");
        assertThat(samples(run)).extracting(s -> s.getLabels().get("tag")).containsExactly("1", "2");
        assertThat(samples(" ")).isEmpty();
    }

    @Test
    void oversizedNamesAndLabelsAreRefused() throws Exception {
        String run = "run-" + UUID.randomUUID();
        HttpResponse<String> response = write("/write?precision=s&db=" + run, valid(run, 1)
                + "cpu,big=" + "x".repeat(70_000) + " value=1 " + T + "\n"
                + "m".repeat(70_000) + " value=1 " + T + "\n"
                + valid(run, 2));
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("line 2, field big: label value is 70000 bytes")
                .contains("line 3, field measurement: name is 70000 bytes");
        assertThat(samples(run)).hasSize(2);
    }

    /**
     * The ~1.6 MB incompressible tag on one of 1,501 lines: before, 503 after 1,000 lines were in Kafka; now 400
     * naming that line, and the 1,500 valid lines stored exactly once.
     */
    @Test
    void anIncompressibleMegabyteTagIsRefusedAndTheOtherLinesAreStoredOnce() throws Exception {
        String run = "run-" + UUID.randomUUID();
        byte[] random = new byte[800_000];
        new Random(11).nextBytes(random);
        StringBuilder body = new StringBuilder();
        for (int i = 1; i <= 1_501; i++) {
            body.append(i == 1_001 ? "cpu,blob=" + HexFormat.of().formatHex(random) + " value=1 " + T + "\n"
                    : valid(run, i));
        }
        HttpResponse<String> response = write("/write?precision=s&db=" + run, body.toString());
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("line 1001").contains("rejected lines: 1001;")
                .contains("accepted=1500");
        List<Sample> stored = samples(run);
        assertThat(stored).hasSize(1_500);
        assertThat(stored.stream().map(s -> s.getLabels().get("tag")).distinct().count()).isEqualTo(1_500);
    }

    @Test
    void aOneMebibyteLineIsRefused() throws Exception {
        String run = "run-" + UUID.randomUUID();
        HttpResponse<String> response = write("/write?precision=s&db=" + run, valid(run, 1)
                + "cpu " + "f".repeat(1 << 20) + "=1 " + T + "\n" + valid(run, 2));
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("line 2: line is ").contains("bytes, over the limit of 524288");
        assertThat(samples(run)).hasSize(2);
    }

    @Test
    void timestampsOutsideTheWindowAreRefusedNotClamped() throws Exception {
        String run = "run-" + UUID.randomUUID();
        HttpResponse<String> response = write("/write?precision=s&db=" + run, valid(run, 1)
                + "cpu value=1 100000000000\n"
                + "cpu value=1 " + T * 1000 + "\n"
                + "cpu value=1 -30610224000\n"
                + valid(run, 2));
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("line 2, field timestamp").contains("line 3, field timestamp")
                .contains("precision=ms").contains("line 4, field timestamp").contains("rejected lines: 2-4");
        assertThat(samples(run)).hasSize(2);
    }

    @Test
    void tooManySamplesInOneRequestAre413AndNothingIsStored() throws Exception {
        String run = "run-" + UUID.randomUUID();
        StringBuilder fields = new StringBuilder();
        for (int f = 0; f < 250; f++) {
            fields.append(f == 0 ? "" : ",").append('f').append(f).append("=1");
        }
        String line = "m " + fields + " " + T + "\n";
        // 2,001 lines of 250 fields: 500,250 samples, just beyond the 500,000 a request may carry
        HttpResponse<String> response = write("/write?precision=s&db=" + run, line.repeat(2_001));
        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(response.body()).contains("more than 500000 samples");
        assertThat(samples(run)).isEmpty();
    }

    @Test
    void eventsWithAnInvalidSampleAre400AndPublishNothing() throws Exception {
        String run = "run-" + UUID.randomUUID();
        String body = """
                {"runId": "%s", "events": [{"type": "annotation", "text": "before"}],
                 "samples": [
                   {"timestamp": "2025-12-03T12:00:00Z", "source": "a", "metric": "m", "value": 1},
                   {"timestamp": "2025-12-03T12:00:00Z", "source": "a", "metric": "m", "value": 1,
                    "labels": {"big": "%s"}},
                   {"timestamp": "1000-01-01T00:00:00Z", "source": "a", "metric": "m", "value": 1}]}
                """.formatted(run, "x".repeat(70_000));
        HttpResponse<String> response = post("/api/v1/events", body, "Content-Type", "application/json");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("samples[1].big: label value is 70000 bytes")
                .contains("nothing was published");
        assertThat(samples(run)).isEmpty();
        assertThat(CommittedRecords.of(broker.bootstrapServers(), TopicCatalog.RUNS, run)).isEmpty();
    }

    @Test
    void lifecycleWithABlankRunIsRefused() throws Exception {
        HttpResponse<String> response = post("/api/v1/runs/%20/end", "", "Content-Type", "application/json");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("runId");
        assertThat(CommittedRecords.of(broker.bootstrapServers(), TopicCatalog.RUNS, " ")).isEmpty();
    }

    @Test
    void k6PointsOutsideTheWindowAreNamedAndTheOthersStored() throws Exception {
        String run = "run-" + UUID.randomUUID();
        String point = "{\"type\":\"Point\",\"metric\":\"vus\",\"data\":{\"time\":\"%s\",\"value\":1,"
                + "\"tags\":{\"source\":\"%s\"}}}\n";
        String body = point.formatted("2025-12-03T12:00:00Z", "a") + point.formatted("1999-12-31T23:59:59Z", "a")
                + point.formatted("2025-12-03T12:00:01Z", " ") + point.formatted("2025-12-03T12:00:02Z", "a");
        HttpResponse<String> response = post("/api/v1/k6?run=" + URLEncoder.encode(run, StandardCharsets.UTF_8),
                body);
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("line 2, field data.time").contains("line 3, field data.tags.source")
                .contains("rejected lines: 2-3");
        assertThat(samples(run)).hasSize(2);
    }

    private static String valid(String run, int tag) {
        return "cpu,host=h,tag=" + tag + " value=" + tag + " " + T + "\n";
    }

    private List<Sample> samples(String run) {
        return CommittedRecords.of(broker.bootstrapServers(), TopicCatalog.SAMPLES, run).stream()
                .flatMap(v -> EventSerdes.sampleBatch().deserialize(TopicCatalog.SAMPLES, v).getSamples().stream())
                .toList();
    }

    private HttpResponse<String> write(String path, String body) throws Exception {
        return post(path, body, "Content-Type", "text/plain");
    }

    private HttpResponse<String> post(String path, String body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Authorization", "Bearer " + WRITER);
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
