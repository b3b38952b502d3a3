package dev.caplab.ingest.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.broker.BrokerSettings;
import dev.caplab.broker.EmbeddedKafkaBroker;
import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.zip.GZIPOutputStream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** HTTP on a random port → the real in-process broker → a consumer decoding with caplab's serdes. */
@SpringBootTest(classes = IngestHttpIT.App.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class IngestHttpIT {

    private static final String WRITER = "it-writer-secret-0123456789";
    private static final String READER = "it-reader-secret-0123456789";
    private static final long MAX_BODY = 200_000;
    private static Path dataDir;
    private static EmbeddedKafkaBroker broker;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(IngestHttpConfiguration.class)
    static class App {
    }

    @DynamicPropertySource
    static void ingestProperties(DynamicPropertyRegistry registry) throws IOException {
        dataDir = Files.createTempDirectory("caplab-ingest-it");
        broker = EmbeddedKafkaBroker.start(BrokerSettings.loopback(dataDir, 0));
        registry.add("caplab.ingest.bootstrap-servers", broker::bootstrapServers);
        registry.add("caplab.ingest.max-body-bytes", () -> MAX_BODY);
        registry.add("caplab.access.tokens[0].name", () -> "k6");
        registry.add("caplab.access.tokens[0].secret", () -> WRITER);
        registry.add("caplab.access.tokens[0].scopes", () -> "write");
        registry.add("caplab.access.tokens[1].name", () -> "dashboard");
        registry.add("caplab.access.tokens[1].secret", () -> READER);
        registry.add("caplab.access.tokens[1].scopes", () -> "read");
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
    void gzipWriteWithOneBadLinePublishesTheValidLinesThenAnswers400() throws Exception {
        String run = "run-" + UUID.randomUUID();
        String body = "cpu,host=sut-1 usage_user=41.5,usage_system=6.25 1709280000000000000\n"
                + "cpu,host=sut-1 usage_user=oops 1709280001000000000\n"
                + "http_req_duration,status=200 value=112.5 1709280002000000000\n";

        HttpResponse<String> response = post("/write?db=" + run + "&precision=ns", gzip(body),
                "Authorization", "Bearer " + WRITER, "Content-Encoding", "gzip");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("line 2, field usage_user: invalid number 'oops'").contains("accepted=3");
        List<Sample> samples = samplesOf(run, 3);
        assertThat(samples).extracting(Sample::getMetric)
                .containsExactly("cpu.usage_user", "cpu.usage_system", "http_req_duration");
        assertThat(samples.getFirst().getSource()).isEqualTo("sut-1");
    }

    @Test
    void cleanWriteAnswers204WithInfluxStyleCredentials() throws Exception {
        String run = "run-" + UUID.randomUUID();
        String basic = java.util.Base64.getEncoder().encodeToString(("k6:" + WRITER).getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> response = post("/write?db=" + run + "&precision=s", "vus value=10 1709280000\n"
                .getBytes(StandardCharsets.UTF_8), "Authorization", "Basic " + basic);

        assertThat(response.statusCode()).isEqualTo(204);
        assertThat(samplesOf(run, 1).getFirst().getValue()).isEqualTo(10.0);
        assertThat(post("/write?db=" + run + "&p=" + WRITER, "vus value=11".getBytes(StandardCharsets.UTF_8))
                .statusCode()).isEqualTo(204);
    }

    @Test
    void writesWithoutAWriteTokenAreRefused() throws Exception {
        byte[] line = "vus value=1".getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> none = post("/write?db=r", line);
        HttpResponse<String> readOnly = post("/write?db=r", line, "Authorization", "Bearer " + READER);
        HttpResponse<String> wrong = post("/api/v1/events", "{}".getBytes(StandardCharsets.UTF_8),
                "Authorization", "Bearer not-a-token-at-all-xx", "Content-Type", "application/json");

        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.body()).contains("missing token");
        assertThat(readOnly.statusCode()).isEqualTo(403);
        assertThat(readOnly.body()).contains("lacks the 'write' scope");
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(http.send(HttpRequest.newBuilder(uri("/ping")).GET().build(), HttpResponse.BodyHandlers.ofString())
                .statusCode()).isEqualTo(204);
    }

    @Test
    void oversizedBodiesAre413EvenWhenOnlyTheDecompressedSizeIsTooLarge() throws Exception {
        byte[] big = "vus value=1 0\n".repeat((int) (MAX_BODY / 14) + 10).getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> plain = post("/write?db=r", big, "Authorization", "Bearer " + WRITER);
        HttpResponse<String> bomb = post("/write?db=r", gzip(new String(big, StandardCharsets.UTF_8)),
                "Authorization", "Bearer " + WRITER, "Content-Encoding", "gzip");

        assertThat(plain.statusCode()).isEqualTo(413);
        assertThat(plain.body()).contains("exceeds the limit of " + MAX_BODY + " bytes");
        assertThat(bomb.statusCode()).isEqualTo(413);
        assertThat(bomb.body()).contains("decompressed request body exceeds");
    }

    @Test
    void runStartAndEventsBatchReachTheRunsAndSamplesTopics() throws Exception {
        HttpResponse<String> started = post("/api/v1/runs", resource("http/run-start.json"),
                "Authorization", "Bearer " + WRITER, "Content-Type", "application/json");
        assertThat(started.statusCode()).isEqualTo(201);
        String run = started.body().replaceAll(".*\"runId\":\"([^\"]+)\".*", "$1");
        assertThat(run).startsWith("livekit-");

        byte[] batch = new String(resource("http/events-batch.json"), StandardCharsets.UTF_8).replace("RUN", run)
                .getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> accepted = post("/api/v1/events", batch, "Authorization", "Bearer " + WRITER,
                "Content-Type", "application/json");
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        assertThat(post("/api/v1/runs/" + run + "/steps/0/end", new byte[0], "Authorization", "Bearer " + WRITER)
                .statusCode()).isEqualTo(202);

        List<SpecificRecord> lifecycle = consume(TopicCatalog.RUNS, EventSerdes.lifecycle(), run, 4);
        assertThat(lifecycle).extracting(e -> e.getClass().getSimpleName())
                .containsExactly("RunStarted", "StepStarted", "Annotation", "StepEnded");
        RunStarted runStarted = (RunStarted) lifecycle.getFirst();
        assertThat(runStarted.getSloRules()).hasSize(2);
        assertThat(runStarted.getEnvironment().getMeasuredEgressMbps()).isEqualTo(106.0);
        assertThat(((StepStarted) lifecycle.get(1)).getWarmupMicros()).isEqualTo(20_000_000L);
        assertThat(((Annotation) lifecycle.get(2)).getLabels()).containsEntry("by", "ops");
        List<Sample> samples = samplesOf(run, 2);
        assertThat(samples.get(1).getKind()).isEqualTo(SampleKind.COUNTER);
    }

    /** Issue 16: optional fields default (warm-up 0, times now, status COMPLETED); required ones say so, not Jackson. */
    @Test
    void lifecycleBodiesWithOnlyTheRequiredFieldsAreAccepted() throws Exception {
        String run = "run-" + UUID.randomUUID();
        String[] auth = {"Authorization", "Bearer " + WRITER, "Content-Type", "application/json"};
        byte[] events = ("{\"runId\":\"" + run + "\",\"events\":[{\"type\":\"step_started\",\"index\":0,"
                + "\"load\":{\"users\":10}},{\"type\":\"step_ended\",\"index\":0},{\"type\":\"run_ended\"}]}")
                .getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> batch = post("/api/v1/events", events, auth);
        assertThat(batch.statusCode()).as(batch.body()).isEqualTo(202);
        HttpResponse<String> step = post("/api/v1/runs/" + run + "/steps",
                "{\"index\":1,\"load\":{\"users\":20}}".getBytes(StandardCharsets.UTF_8), auth);
        assertThat(step.statusCode()).as(step.body()).isEqualTo(202);
        HttpResponse<String> annotation = post("/api/v1/runs/" + run + "/annotations",
                "{\"text\":\"stopped a container\"}".getBytes(StandardCharsets.UTF_8), auth);
        assertThat(annotation.statusCode()).as(annotation.body()).isEqualTo(202);
        HttpResponse<String> vouched = post("/api/v1/runs/" + run + "/end",
                "{\"allSamplesSent\":true}".getBytes(StandardCharsets.UTF_8), auth);
        assertThat(vouched.statusCode()).as(vouched.body()).isEqualTo(202);

        List<SpecificRecord> lifecycle = consume(TopicCatalog.RUNS, EventSerdes.lifecycle(), run, 6);
        assertThat(lifecycle).extracting(e -> e.getClass().getSimpleName())
                .containsExactly("StepStarted", "StepEnded", "RunEnded", "StepStarted", "Annotation", "RunEnded");
        assertThat(((StepStarted) lifecycle.getFirst()).getWarmupMicros()).isZero();
        assertThat(((StepStarted) lifecycle.get(3)).getWarmupMicros()).isZero();
        assertThat(((RunEnded) lifecycle.get(2)).getAllSamplesSent()).as("unless the sender says so").isFalse();
        assertThat(((RunEnded) lifecycle.get(5)).getAllSamplesSent()).isTrue();
        assertThat(((RunEnded) lifecycle.get(5)).getStatus()).isEqualTo(dev.caplab.schema.event.RunStatus.COMPLETED);

        HttpResponse<String> noIndex = post("/api/v1/runs/" + run + "/steps",
                "{\"load\":{\"users\":20}}".getBytes(StandardCharsets.UTF_8), auth);
        HttpResponse<String> noValue = post("/api/v1/events", ("{\"runId\":\"" + run + "\",\"samples\":[{"
                + "\"timestamp\":\"2026-03-01T10:00:00Z\",\"source\":\"lg\",\"metric\":\"rtt.ms\"}]}")
                .getBytes(StandardCharsets.UTF_8), auth);
        assertThat(noIndex.statusCode()).isEqualTo(400);
        assertThat(noIndex.body()).contains("step index is required").doesNotContain("null");
        assertThat(noValue.statusCode()).isEqualTo(400);
        assertThat(noValue.body()).contains("value is required");
    }

    /**
     * Issue 33: one request carrying a run's samples and its end, as the history bench and any client posting a whole
     * run send it: the ends are stamped after every sample of the request and marked, and the run's samples mark (an
     * empty batch stamped like them) follows its samples, so the topology knows when it has read them.
     */
    @Test
    void aRequestsEndsAreStampedAfterItsSamples() throws Exception {
        String run = "run-" + UUID.randomUUID();
        StringBuilder samples = new StringBuilder();
        for (int i = 0; i < 2_000; i++) {
            samples.append(i == 0 ? "" : ",").append("{\"timestamp\":\"2026-03-01T10:00:").append(String.format("%02d", i % 60))
                    .append(".").append(String.format("%03d", i % 1000)).append("Z\",\"source\":\"lg-").append(i % 7)
                    .append("\",\"metric\":\"rtt.ms\",\"value\":").append(i).append("}");
        }
        byte[] body = ("{\"runId\":\"" + run + "\",\"events\":[{\"type\":\"step_started\",\"index\":0,"
                + "\"startedAt\":\"2026-03-01T10:00:00Z\",\"load\":{\"users\":10}},{\"type\":\"step_ended\","
                + "\"index\":0,\"endedAt\":\"2026-03-01T10:01:00Z\"},{\"type\":\"run_ended\",\"endedAt\":"
                + "\"2026-03-01T10:01:00Z\",\"allSamplesSent\":true}],\"samples\":[" + samples + "]}")
                .getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> accepted = post("/api/v1/events", body, "Authorization", "Bearer " + WRITER,
                "Content-Type", "application/json");
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);

        List<ConsumerRecord<String, SpecificRecord>> lifecycle = new ArrayList<>();
        consumeRecords(TopicCatalog.RUNS, EventSerdes.lifecycle(), run, r -> lifecycle.add(r) && lifecycle.size() == 3);
        List<ConsumerRecord<String, SampleBatch>> batches = new ArrayList<>();
        consumeRecords(TopicCatalog.SAMPLES, EventSerdes.sampleBatch(), run, r -> batches.add(r)
                && r.value().getSamples().isEmpty());
        ConsumerRecord<String, SampleBatch> mark = batches.getLast();
        List<ConsumerRecord<String, SampleBatch>> sampleBatches = batches.subList(0, batches.size() - 1);
        assertThat(sampleBatches.stream().mapToInt(b -> b.value().getSamples().size()).sum())
                .as("every sample before the samples mark").isEqualTo(2_000);
        long lastSample = sampleBatches.stream().mapToLong(ConsumerRecord::timestamp).max().orElseThrow();
        long firstSample = sampleBatches.stream().mapToLong(ConsumerRecord::timestamp).min().orElseThrow();
        assertThat(lifecycle).extracting(r -> r.value().getClass().getSimpleName())
                .containsExactly("StepStarted", "StepEnded", "RunEnded");
        assertThat(lifecycle.getFirst().timestamp()).as("the start, against the first sample").isLessThanOrEqualTo(firstSample);
        assertThat(lifecycle.subList(1, 3)).as("the ends, against the last sample at %d", lastSample)
                .allSatisfy(r -> {
                    assertThat(r.timestamp()).isGreaterThan(lastSample).isEqualTo(mark.timestamp());
                    assertThat(r.headers().lastHeader(TopicCatalog.SAMPLES_MARK_HEADER)).isNotNull();
                });
        assertThat(lifecycle.getFirst().headers().lastHeader(TopicCatalog.SAMPLES_MARK_HEADER)).isNull();
    }

    @Test
    void summarySamplesCarryTheToolsStatisticsAndBadOnesAre400NamingTheField() throws Exception {
        String run = "run-" + UUID.randomUUID();
        String[] auth = {"Authorization", "Bearer " + WRITER, "Content-Type", "application/json"};
        HttpResponse<String> accepted = post("/api/v1/events", ("{\"runId\":\"" + run + "\",\"samples\":[{"
                + "\"timestamp\":\"2026-03-01T10:00:00.000250Z\",\"source\":\"locust\",\"metric\":\"http.req.duration.ms\","
                + "\"value\":21.5,\"summary\":{\"window\":\"cumulative\",\"count\":1200,\"windowMicros\":60000000,"
                + "\"mean\":21.5,\"min\":4,\"max\":540,\"quantiles\":{\"0.5\":17,\"0.99\":92}}}]}")
                .getBytes(StandardCharsets.UTF_8), auth);
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        Sample sample = samplesOf(run, 1).getFirst();
        assertThat(sample.getKind()).as("a sample with statistics is a summary").isEqualTo(SampleKind.SUMMARY);
        assertThat(sample.getTimestamp()).isEqualTo(java.time.Instant.parse("2026-03-01T10:00:00.000250Z"));
        assertThat(sample.getSummary().getWindow()).isEqualTo(dev.caplab.schema.event.SummaryWindow.CUMULATIVE);
        assertThat(sample.getSummary().getCount()).isEqualTo(1200);
        assertThat(sample.getSummary().getWindowMicros()).isEqualTo(60_000_000L);
        assertThat(List.of(sample.getSummary().getMean(), sample.getSummary().getMin(), sample.getSummary().getMax()))
                .containsExactly(21.5, 4.0, 540.0);
        assertThat(sample.getSummary().getQuantiles()).containsExactlyInAnyOrderEntriesOf(Map.of("0.5", 17.0, "0.99", 92.0));

        HttpResponse<String> badKey = post("/api/v1/events", ("{\"runId\":\"" + run + "\",\"samples\":[{"
                + "\"timestamp\":\"2026-03-01T10:00:00Z\",\"source\":\"locust\",\"metric\":\"m\",\"value\":1,"
                + "\"summary\":{\"quantiles\":{\"p99\":92}}}]}").getBytes(StandardCharsets.UTF_8), auth);
        HttpResponse<String> gaugeWithStats = post("/api/v1/events", ("{\"runId\":\"" + run + "\",\"samples\":[{"
                + "\"timestamp\":\"2026-03-01T10:00:00Z\",\"source\":\"locust\",\"metric\":\"m\",\"value\":1,"
                + "\"kind\":\"gauge\",\"summary\":{\"count\":3}}]}").getBytes(StandardCharsets.UTF_8), auth);
        assertThat(badKey.statusCode()).isEqualTo(400);
        assertThat(badKey.body()).contains("summary.quantile key 'p99' is not a number in [0, 1]");
        assertThat(gaugeWithStats.statusCode()).isEqualTo(400);
        assertThat(gaugeWithStats.body()).contains("summary statistics need kind SUMMARY, was GAUGE");
    }

    @Test
    void invalidLifecycleBodiesAre400WithTheReason() throws Exception {
        HttpResponse<String> badSlo = post("/api/v1/runs",
                "{\"sut\":\"x\",\"slo\":[\"p97(latency)<=5\"]}".getBytes(StandardCharsets.UTF_8),
                "Authorization", "Bearer " + WRITER, "Content-Type", "application/json");
        HttpResponse<String> noSut = post("/api/v1/runs", "{\"provider\":\"aws\"}".getBytes(StandardCharsets.UTF_8),
                "Authorization", "Bearer " + WRITER, "Content-Type", "application/json");

        assertThat(badSlo.statusCode()).isEqualTo(400);
        assertThat(badSlo.body()).contains("unknown statistic 'p97'");
        assertThat(noSut.statusCode()).isEqualTo(400);
        assertThat(noSut.body()).contains("sut (the system under test's name) is required");
    }

    @Test
    void k6JsonUploadIsPublished() throws Exception {
        String run = "run-" + UUID.randomUUID();
        HttpResponse<String> response = post("/api/v1/k6?run=" + run, gzip(new String(resource("k6/results.json"),
                StandardCharsets.UTF_8)), "Authorization", "Bearer " + WRITER, "Content-Encoding", "gzip");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(samplesOf(run, 4)).extracting(Sample::getMetric).contains("vus", "http_reqs", "checks");
    }

    /** #11: curl's default form Content-Type made getParameter consume the body; 204 with nothing published. */
    @Test
    void theBodyReachesWriteWhateverItsContentTypeWithTheTokenInTheQueryString() throws Exception {
        String[][] cases = {{"text/plain", null}, {"application/x-www-form-urlencoded", null}, {null, null},
                {"application/octet-stream", null}, {"application/x-www-form-urlencoded", "gzip"}};
        for (String[] c : cases) {
            String run = "ct-" + UUID.randomUUID();
            // '&' and '=' in the body: parsed as a form, these lines would become parameters
            String body = "cpu,host=a value=1 1709280000000000000\nmem,host=a&x value=2 1709280001000000000\n";
            List<String> headers = new ArrayList<>();
            if (c[0] != null) {
                headers.addAll(List.of("Content-Type", c[0]));
            }
            if (c[1] != null) {
                headers.addAll(List.of("Content-Encoding", c[1]));
            }
            byte[] bytes = c[1] != null ? gzip(body) : body.getBytes(StandardCharsets.UTF_8);
            HttpResponse<String> response = post("/write?db=" + run + "&u=k6&p=" + WRITER, bytes,
                    headers.toArray(String[]::new));
            assertThat(response.statusCode()).as(c[0] + " " + c[1] + ": " + response.body()).isEqualTo(204);
            assertThat(samplesOf(run, 2)).as(c[0] + " " + c[1]).extracting(Sample::getMetric)
                    .containsExactly("cpu", "mem");
        }
    }

    /** #11: the k6 upload's own documented {@code curl --data-binary @results.json} answered {"accepted":0}. */
    @Test
    void k6UploadWithCurlsDefaultContentTypeIsPublished() throws Exception {
        String run = "run-" + UUID.randomUUID();
        HttpResponse<String> response = post("/api/v1/k6?run=" + run, resource("k6/results.json"),
                "Authorization", "Bearer " + WRITER, "Content-Type", "application/x-www-form-urlencoded");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).doesNotContain("\"accepted\":0");
        assertThat(samplesOf(run, 4)).extracting(Sample::getMetric).contains("vus", "http_reqs", "checks");
    }

    @Test
    void jsonEndpointsReadTheirBodyWhateverTheContentTypeAndGzip() throws Exception {
        HttpResponse<String> form = post("/api/v1/runs", resource("http/run-start.json"),
                "Authorization", "Bearer " + WRITER, "Content-Type", "application/x-www-form-urlencoded");
        HttpResponse<String> none = post("/api/v1/runs", gzip(new String(resource("http/run-start.json"),
                StandardCharsets.UTF_8)), "Authorization", "Bearer " + WRITER, "Content-Encoding", "gzip");
        assertThat(form.statusCode()).as(form.body()).isEqualTo(201);
        assertThat(none.statusCode()).as(none.body()).isEqualTo(201);
    }

    /** #12 item 2: each of these wrote without a token, the filter compared the raw URI with the routed path. */
    @Test
    void pathSpellingsThatRouteToAWriteEndpointStillNeedTheWriteToken() throws Exception {
        byte[] line = "vus value=1".getBytes(StandardCharsets.UTF_8);
        byte[] json = "{\"sut\":\"bypass\"}".getBytes(StandardCharsets.UTF_8);
        List<String> refused = new ArrayList<>();
        for (String path : List.of("/write;x=1?db=bypass", "/%77rite?db=bypass", "/api/v1/events;x",
                "/api/v1/k6;x?run=bypass", "/api/v1/runs;x", "/api/v1/%72uns/bypass/end")) {
            HttpResponse<String> response = post(path, path.contains("rite") || path.contains("k6") ? line : json,
                    "Content-Type", "application/json");
            assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(401);
            refused.add(path);
        }
        assertThat(refused).hasSize(6);
        HttpResponse<String> readToken = post("/%77rite;x?db=bypass", line, "Authorization", "Bearer " + READER);
        assertThat(readToken.statusCode()).isEqualTo(403);
    }

    /** #12 item 5: a page on another site must not write into caplab, even when the token travels in the URL. */
    @Test
    void crossOriginWritesAreRefusedButToolsAndTheOwnPageAreNot() throws Exception {
        byte[] line = "vus value=1".getBytes(StandardCharsets.UTF_8);
        String run = "origin-" + UUID.randomUUID();
        HttpResponse<String> evil = post("/write?db=" + run + "&p=" + WRITER, line,
                "Content-Type", "text/plain", "Origin", "http://evil.example");
        HttpResponse<String> crossSite = post("/write?db=" + run + "&p=" + WRITER, line,
                "Content-Type", "text/plain", "Sec-Fetch-Site", "cross-site");
        HttpResponse<String> nullOrigin = post("/api/v1/runs?p=" + WRITER, "{\"sut\":\"x\"}".getBytes(StandardCharsets.UTF_8),
                "Content-Type", "text/plain", "Origin", "null");
        assertThat(evil.statusCode()).isEqualTo(403);
        assertThat(evil.body()).contains("cross-origin request from Origin http://evil.example refused");
        assertThat(crossSite.statusCode()).isEqualTo(403);
        assertThat(crossSite.body()).contains("Sec-Fetch-Site: cross-site");
        assertThat(nullOrigin.statusCode()).isEqualTo(403);

        HttpResponse<String> ownPage = post("/write?db=" + run + "&p=" + WRITER, line,
                "Origin", "http://127.0.0.1:" + port, "Sec-Fetch-Site", "same-origin");
        assertThat(ownPage.statusCode()).as(ownPage.body()).isEqualTo(204);
        assertThat(samplesOf(run, 1)).hasSize(1);
    }

    private List<Sample> samplesOf(String run, int expected) {
        List<SampleBatch> batches = new ArrayList<>();
        consume(TopicCatalog.SAMPLES, EventSerdes.sampleBatch(), run, b -> {
            batches.add(b);
            return batches.stream().mapToInt(x -> x.getSamples().size()).sum() >= expected;
        });
        assertThat(batches).allSatisfy(b -> assertThat(b.getRunId()).isEqualTo(run));
        return batches.stream().flatMap(b -> b.getSamples().stream()).toList();
    }

    private <V> List<V> consume(String topic, Deserializer<V> values, String run, int expected) {
        List<V> seen = new ArrayList<>();
        consume(topic, values, run, v -> {
            seen.add(v);
            return seen.size() >= expected;
        });
        return seen;
    }

    /** Reads the topic from the start, feeding values keyed by the run until done says so (20 s at most). */
    private <V> void consume(String topic, Deserializer<V> values, String run, Predicate<V> done) {
        consumeRecords(topic, values, run, r -> done.test(r.value()));
    }

    /** Reads the topic from the start, feeding records keyed by the run until done says so (20 s at most). */
    private <V> void consumeRecords(String topic, Deserializer<V> values, String run,
            Predicate<ConsumerRecord<String, V>> done) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<String, V> consumer = new KafkaConsumer<>(config, new StringDeserializer(), values)) {
            // assign instead of subscribe: no consumer-group join, so no rebalance delay per read
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, V> record : consumer.poll(Duration.ofMillis(200))) {
                    if (run.equals(record.key()) && done.test(record)) {
                        return;
                    }
                }
            }
        }
        throw new AssertionError("not enough records for " + run + " on " + topic + " within 20 s");
    }

    private HttpResponse<String> post(String path, byte[] body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    private static byte[] resource(String name) {
        try (InputStream in = IngestHttpIT.class.getClassLoader().getResourceAsStream(name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
