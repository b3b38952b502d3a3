package dev.caplab.ingest.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.ThreadMXBean;
import dev.caplab.ingest.remotewrite.WriteRequests;
import dev.caplab.ingest.remotewrite.prompb.Remote.WriteRequest;
import dev.caplab.ingest.remotewrite.prompb.Types.BucketSpan;
import dev.caplab.ingest.remotewrite.prompb.Types.Histogram;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.util.Collections;
import java.util.zip.GZIPOutputStream;
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
 * Each poison input over HTTP against the real broker: 400 naming the line and field, nothing of the bad line in
 * Kafka (read read_committed, as streams and the sink read), and the valid lines around it stored once; and bombs,
 * bodies of a few kilobytes claiming millions of values, refused (413, or 400 for a snappy block whose declared
 * length its bytes cannot hold) within a second and a few MiB, the door healthy right after.
 */
@SpringBootTest(classes = IngestPoisonIT.App.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class IngestPoisonIT {

    private static final String WRITER = "it-writer-secret-0123456789";
    /** 2025-12-03T12:00:00Z in seconds: inside the accepted window whatever day the test runs. */
    private static final long T = 1_764_763_200L;
    private static EmbeddedKafkaBroker broker;
    /** What refusing one bomb may allocate in the whole JVM; accepting any of them allocated gigabytes. */
    private static final long MAX_ALLOCATED_BYTES = 32L * 1024 * 1024;
    private static final long MAX_ANSWER_MILLIS = 1_000;
    private static final long T_MILLIS = T * 1_000;

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
    private final ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();

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

    // Bodies of a few kilobytes that claim millions of values: each is refused within a second, naming the field,
    // while the JVM allocates a few MiB for it (every thread counted, the server's included), and a normal write
    // right after succeeds.

    @Test
    void anExponentialHistogramOfTwelveMillionZeroBucketsIsRefusedBeforeItIsParsed() throws Exception {
        assertHealthy(); // warm: the first request of a path loads its classes
        byte[] body = gzip(out -> {
            out.write(("{\"resourceMetrics\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":"
                    + "{\"stringValue\":\"bomb\"}}]},\"scopeMetrics\":[{\"metrics\":[{\"name\":\"latency\","
                    + "\"exponentialHistogram\":{\"aggregationTemporality\":2,\"dataPoints\":[{\"attributes\":"
                    + "[{\"key\":\"run\",\"value\":{\"stringValue\":\"bomb-run\"}}],\"timeUnixNano\":\""
                    + T_MILLIS * 1_000_000 + "\",\"count\":\"0\",\"scale\":0,\"positive\":{\"offset\":0,"
                    + "\"bucketCounts\":[0").getBytes(StandardCharsets.UTF_8));
            byte[] zeros = ",0".repeat(100_000).getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < 120; i++) {
                out.write(zeros); // 12,000,001 buckets in all
            }
            out.write("]}}]}}]}]}]}".getBytes(StandardCharsets.UTF_8));
        });
        assertThat(body.length).as("gzip body bytes").isLessThan(64 * 1024);

        Answer answer = postBytes("/v1/metrics", body, "Content-Type", "application/json", "Content-Encoding", "gzip");

        answer.assertCheap();
        assertThat(answer.status()).isEqualTo(413);
        assertThat(answer.body()).contains("exponentialHistogram.dataPoints[0].positive.bucketCounts")
                .contains("500000");
        assertHealthy();
    }

    @Test
    void aNativeHistogramDeclaringTwoMillionBucketsIsRefusedBeforeItIsExpanded() throws Exception {
        assertHealthy(); // warm: the first request of a path loads its classes
        int buckets = 2_000_000;
        Histogram histogram = Histogram.newBuilder().setSchema(0).setCountInt(0).setSum(0)
                .addPositiveSpans(BucketSpan.newBuilder().setOffset(0).setLength(buckets))
                .addAllPositiveDeltas(Collections.nCopies(buckets, 0L)).setTimestamp(T_MILLIS).build();
        byte[] body = WriteRequests.body(WriteRequest.newBuilder().addTimeseries(WriteRequests.series(
                "__name__", "latency", "run", "bomb-run").addHistograms(histogram)).build());

        Answer answer = postBytes("/api/v1/write", body, "Content-Type", "application/x-protobuf",
                "Content-Encoding", "snappy");

        answer.assertCheap();
        assertThat(answer.status()).isEqualTo(413);
        assertThat(answer.body()).contains("timeseries[0].histograms[0].positive_deltas").contains("500000");
        assertHealthy();
    }

    @Test
    void aFiveByteSnappyBodyDeclaring64MebibytesIsRefusedBeforeAllocating() throws Exception {
        assertHealthy(); // warm: the first request of a path loads its classes
        int declared = 64 * 1024 * 1024;
        // the block's preamble: the uncompressed length as a varint, then one literal tag
        byte[] body = {(byte) (declared & 0x7f | 0x80), (byte) ((declared >>> 7) & 0x7f | 0x80),
                (byte) ((declared >>> 14) & 0x7f | 0x80), (byte) (declared >>> 21), 0};

        Answer answer = postBytes("/api/v1/write", body, "Content-Type", "application/x-protobuf",
                "Content-Encoding", "snappy");

        answer.assertCheap();
        assertThat(answer.status()).isIn(400, 413);
        assertThat(answer.body()).contains("declares " + declared);
        assertHealthy();
    }

    /** A normal remote write and a normal OTLP export are stored right after. */
    private void assertHealthy() throws Exception {
        byte[] write = WriteRequests.body(WriteRequest.newBuilder().addTimeseries(WriteRequests.series(
                "__name__", "up", "run", "healthy-run").addSamples(WriteRequests.sample(1, T_MILLIS))).build());
        assertThat(postBytes("/api/v1/write", write, "Content-Type", "application/x-protobuf",
                "Content-Encoding", "snappy").status()).isEqualTo(204);
        String otlp = "{\"resourceMetrics\":[{\"scopeMetrics\":[{\"metrics\":[{\"name\":\"up\",\"gauge\":{"
                + "\"dataPoints\":[{\"attributes\":[{\"key\":\"run\",\"value\":{\"stringValue\":\"healthy-run\"}}],"
                + "\"timeUnixNano\":\"" + T_MILLIS * 1_000_000 + "\",\"asDouble\":1}]}}]}]}]}";
        Answer answer = postBytes("/v1/metrics", otlp.getBytes(StandardCharsets.UTF_8), "Content-Type",
                "application/json");
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body()).doesNotContain("rejected");
    }

    private Answer postBytes(String path, byte[] body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).header("Authorization", "Bearer " + WRITER);
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        HttpRequest built = request.build();
        long allocatedBefore = threads.getTotalThreadAllocatedBytes();
        long start = System.nanoTime();
        HttpResponse<byte[]> response = http.send(built, HttpResponse.BodyHandlers.ofByteArray());
        long millis = (System.nanoTime() - start) / 1_000_000;
        long allocated = threads.getTotalThreadAllocatedBytes() - allocatedBefore;
        return new Answer(response.statusCode(), new String(response.body(), StandardCharsets.UTF_8), millis,
                allocated);
    }

    private record Answer(int status, String body, long millis, long allocatedBytes) {

        void assertCheap() {
            assertThat(millis).as("answer time in ms (%d bytes allocated; %s)", allocatedBytes, body)
                    .isLessThan(MAX_ANSWER_MILLIS);
            assertThat(allocatedBytes).as("bytes allocated by the JVM while answering (%d ms; %s)", millis, body)
                    .isLessThan(MAX_ALLOCATED_BYTES);
        }
    }

    private interface Writing {
        void to(OutputStream out) throws IOException;
    }

    private static byte[] gzip(Writing writing) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
            writing.to(gzip);
        }
        return bytes.toByteArray();
    }
}
