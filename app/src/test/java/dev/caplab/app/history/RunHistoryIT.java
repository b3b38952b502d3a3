package dev.caplab.app.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.app.CliRun;
import dev.caplab.app.load.WriteClients;
import dev.caplab.app.up.EmbeddedStack;
import dev.caplab.app.up.UpSettings;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.sink.SinkSettings;
import dev.caplab.store.schema.Table;
import dev.caplab.streams.StreamsSettings;
import dev.caplab.streams.rebuild.Rebuild;
import dev.caplab.streams.rebuild.RebuildReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 15 item 3 through {@code caplab up}: seven stepped runs of {@code shop} (same tier, tool and load expression)
 * go in through the public ingest endpoints, three of version 1.0 and four of 2.0, which needs twice the CPU per user;
 * one run of another system on the same tier comes in between. CPU per step is 0.1 + s·users (s within 1 % of 0.05
 * for 1.0, 0.10 for 2.0) up to a knee where contention sets in (12 users for 1.0, 6 for 2.0), then rises three times
 * as steeply; p95 latency breaks the SLO from the first
 * step past 1.2× the knee, so the max stable load is 14 users for 1.0 and 6 for 2.0. The history must hold the seven
 * shop runs only and show one change in each series, at the first 2.0 run.
 *
 * <p>A stray eighth shop run, the newest, is deleted with {@code caplab run delete} before any test: every history
 * figure below would differ if it were still counted. Its rows then leave every table, whatever reaches the sink
 * after its deletion (its own samples, a rebuild's results), while the other runs keep every row they were sent. The
 * last test checks it is gone from every other list and view, that samples sent to its id afterwards begin a new
 * run, and that a rebuild does not bring it back.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RunHistoryIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration PATIENCE = Duration.ofSeconds(240);
    private static final int STEPS = 10;
    private static final int STEP_SECONDS = 20;
    private static final int BASELINE_SECONDS = 5;
    private static final int FIRST_V2_RUN = 3;
    private static final String TIER = "4vcpu-8gb";
    private static final String STRAY = "shop-stray";

    @TempDir
    static Path dataDir;

    private static EmbeddedStack stack;
    private static final List<String> shopRuns = new ArrayList<>();
    /** Per run: its start, the samples sent and their distinct series (metric, source and labels). */
    private static final Map<String, Instant> STARTS = new HashMap<>();
    private static final Map<String, Integer> SAMPLES_SENT = new HashMap<>();
    private static final Map<String, Set<String>> SERIES_SENT = new HashMap<>();
    /** When {@code caplab run delete} said it deleted {@link #STRAY}. */
    private static String strayDeletedAt;

    /** A run's shape: its system, version, CPU per user below the knee and the users where contention sets in. */
    private record Shape(String runId, String sut, String version, double coresPerUser, double knee) {
    }

    @BeforeAll
    static void upAndIngest() throws Exception {
        stack = EmbeddedStack.start(new UpSettings(dataDir, "127.0.0.1", 0, 0, 0, false, null, List.of()),
                new PrintStream(new ByteArrayOutputStream()));
        List<Shape> shapes = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            boolean v2 = i >= FIRST_V2_RUN;
            // a slope that wobbles by ±1 % between runs of one version, as re-runs do
            double wobble = 1 + 0.01 * (i % 3 - 1);
            shapes.add(new Shape("shop-" + i, "shop", v2 ? "2.0" : "1.0", (v2 ? 0.10 : 0.05) * wobble, v2 ? 6 : 12));
            shopRuns.add("shop-" + i);
            if (i == 4) {
                shapes.add(new Shape("search-0", "search", "1.0", 0.2, 4));
            }
        }
        // the newest shop run, of version 2.0 on the same tier: kept, it would be one more point of every series
        shapes.add(new Shape(STRAY, "shop", "2.0", 0.10 * 1.3, 4));
        Instant first = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofHours(shapes.size() + 1));
        for (int i = 0; i < shapes.size(); i++) {
            send(shapes.get(i), first.plus(Duration.ofHours(i)));
        }
        for (Shape s : shapes) {
            await(s.runId());
        }
        // stored before its deletion, every sample of it: so no row of it after the deletion means erased
        awaitSql("SELECT count() FROM samples WHERE run_id = '" + STRAY + "'", SAMPLES_SENT.get(STRAY));
        CliRun deleted = CliRun.of("run", "delete", STRAY, "--reason", "stray test", "--url", uri("").toString());
        assertThat(deleted.exit()).as(deleted.err()).isZero();
        Matcher at = Pattern.compile("^deleted run " + STRAY + " at (\\S+)$").matcher(deleted.out().strip());
        assertThat(at.matches()).as(deleted.out()).isTrue();
        strayDeletedAt = at.group(1);
        awaitGone(STRAY);
        SinkProgress.awaitStored(stack.bootstrapServers(), SinkProgress.read(stack.bootstrapServers(),
                List.of(TopicCatalog.RUNS), STRAY).next(), PATIENCE);
        // a shop run that has started and not ended: its figures are not final, so the history leaves it out
        post("/api/v1/runs", String.format(Locale.ROOT, "{\"runId\":\"shop-running\",\"sut\":\"shop\","
                + "\"sutVersion\":\"2.0\",\"tier\":\"%s\",\"provider\":\"lab\",\"vcpu\":4,\"tool\":\"k6\","
                + "\"loadExpression\":\"users\",\"startedAt\":\"%s\"}", TIER, Instant.now().minusSeconds(60)), 201,
                "shop-running start");
        awaitListed("shop-running");
    }

    @AfterAll
    static void down() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void theHistoryOfShopHasOneChangeAtTheFirstRunOfVersion2InEachSeries() throws Exception {
        HttpResponse<String> r = get("/api/v1/history?sut=shop", "application/json");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode h = JSON.readTree(r.body());
        assertThat(h.path("sut").asString()).isEqualTo("shop");
        assertThat(h.path("tier").asString()).isEqualTo(TIER);
        assertThat(h.path("tool").asString()).isEqualTo("k6");
        assertThat(h.path("loadExpression").asString()).isEqualTo("users");
        assertThat(h.path("metric").asString()).as("the bottleneck by default").isEqualTo("cpu.cores");
        assertThat(h.path("warnings").toString()).contains("1 running run(s) of shop");
        List<String> names = new ArrayList<>();
        h.path("series").forEach(s -> names.add(s.path("series").asString()));
        assertThat(names).containsExactly("slope", "knee", "maxStableLoad", "throughputLimit");
        for (JsonNode series : h.path("series")) {
            String name = series.path("series").asString();
            assertThat(series.path("points").findValuesAsString("runId")).as(name).containsExactlyElementsOf(shopRuns);
            assertThat(series.path("changePoints").size()).as(name + ": " + series).isEqualTo(1);
            JsonNode change = series.path("changePoints").get(0);
            assertThat(change.path("runId").asString()).as(name).isEqualTo("shop-" + FIRST_V2_RUN);
            assertThat(change.path("sutVersion").asString()).as(name).isEqualTo("2.0");
            for (JsonNode p : series.path("points")) {
                assertThat(p.path("changePoint").asBoolean()).as(name + " " + p)
                        .isEqualTo(p.path("runId").asString().equals("shop-" + FIRST_V2_RUN));
            }
        }
        // the values, independently of the fit: the shapes' slopes and knees, max stable the last step under 1.2× the knee
        JsonNode knee = seriesNamed(h, "knee");
        JsonNode maxStable = seriesNamed(h, "maxStableLoad");
        JsonNode slope = seriesNamed(h, "slope");
        JsonNode limit = seriesNamed(h, "throughputLimit");
        for (int i = 0; i < shopRuns.size(); i++) {
            double expectedSlope = (i >= FIRST_V2_RUN ? 0.10 : 0.05) * (1 + 0.01 * (i % 3 - 1));
            assertThat(slope.path("points").get(i).path("value").asDouble()).as("slope of run " + i)
                    .isCloseTo(expectedSlope, within(1e-4));
            assertThat(knee.path("points").get(i).path("value").asDouble()).as("knee of run " + i)
                    .isCloseTo(i >= FIRST_V2_RUN ? 6 : 12, within(0.5));
            assertThat(maxStable.path("points").get(i).path("value").asDouble()).as("max stable of run " + i)
                    .isEqualTo(i >= FIRST_V2_RUN ? 6.0 : 14.0);
            assertThat(limit.path("points").get(i).path("value").asDouble()).as("throughput limit of run " + i)
                    .isCloseTo(i >= FIRST_V2_RUN ? 6 : 12, within(0.5));
        }
        assertThat(knee.path("changePoints").get(0).path("changePercent").asDouble()).isCloseTo(-50,
                within(2.0));
    }

    @Test
    void theCsvHasOneLinePerSeriesAndRunWithTheChangeMarked() throws Exception {
        HttpResponse<String> r = get("/api/v1/history?sut=shop&tier=" + TIER + "&tool=k6&loadExpression=users"
                + "&metric=cpu.cores", "text/csv");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        List<String> lines = r.body().lines().toList();
        assertThat(lines.getFirst()).isEqualTo("series,runId,startedAt,sutVersion,value,changePoint");
        assertThat(lines).hasSize(1 + 4 * shopRuns.size());
        assertThat(lines.stream().filter(l -> l.endsWith(",true"))).hasSize(4)
                .allMatch(l -> l.contains(",shop-" + FIRST_V2_RUN + ","));
        assertThat(lines).noneMatch(l -> l.contains("search"));
    }

    @Test
    void anAmbiguousOrEmptyCohortIsABadRequestThatSaysWhatToPass() throws Exception {
        HttpResponse<String> both = get("/api/v1/history?tier=" + TIER, "application/json");
        assertThat(both.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(both.body()).path("detail").asString())
                .contains("span sut [search, shop]").contains("pass sut=");
        HttpResponse<String> none = get("/api/v1/history?sut=shop&tool=locust", "application/json");
        assertThat(none.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(none.body()).path("detail").asString()).contains("sut=shop, tool=locust")
                .contains("no run matches");
        HttpResponse<String> unfitted = get("/api/v1/history?sut=shop&metric=memory.bytes", "application/json");
        assertThat(unfitted.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(unfitted.body()).path("detail").asString()).contains("fitted: [")
                .contains("cpu.cores");
    }

    /**
     * The stray run, deleted before every test and every one of its rows stored before, has no row left in any table
     * (the deletion's own record aside), the other runs every row they were sent; and samples of it that reach the
     * sink after its deletion (late, or in flight, straight on Kafka: ingest would take them for a new run) are not
     * stored either.
     */
    @Test
    @Order(Integer.MAX_VALUE - 1)
    void aDeletedRunHasNoRowInAnyTableEvenForSamplesArrivingAfterItsDeletion() throws Exception {
        assertNoRowOf(STRAY);
        assertEveryOtherRunHasTheRowsItWasSent();
        assertThat(sql("SELECT count() FROM deleted_runs WHERE run_id = '" + STRAY + "'")).as("the record")
                .isEqualTo("1");

        Instant stepOne = STARTS.get(STRAY).plusSeconds(BASELINE_SECONDS + 1);
        List<Sample> late = List.of(
                Sample.newBuilder().setTimestamp(stepOne).setSource("host").setMetric("cpu.cores")
                        .setKind(SampleKind.GAUGE).setValue(0.3).build(),
                Sample.newBuilder().setTimestamp(stepOne.plusSeconds(1)).setSource("client")
                        .setMetric("http_req_duration").setKind(SampleKind.GAUGE).setValue(120)
                        .setLabels(Map.of("vu", "1")).build());
        RecordMetadata sent;
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new ByteArraySerializer())) {
            sent = producer.send(new ProducerRecord<>(TopicCatalog.SAMPLES, STRAY,
                    EventSerdes.sampleBatch().serialize(TopicCatalog.SAMPLES, new SampleBatch(STRAY, "influx-line",
                            Instant.now(), late)))).get();
        }
        SinkProgress.awaitStored(stack.bootstrapServers(), Map.of(new TopicPartition(sent.topic(), sent.partition()),
                sent.offset() + 1), PATIENCE);
        assertNoRowOf(STRAY);
        assertEveryOtherRunHasTheRowsItWasSent();
    }

    /**
     * The stray run, deleted before every test, is in no list, detail, comparison, history, plan or report; deleting it
     * again or an unknown run answers 404; samples sent to it begin {@code shop-stray.2}; and a rebuild, which re-derives
     * every run from the log (the stray run's conclusion too), leaves it deleted. Last: it adds a run and rebuilds.
     */
    @Test
    @Order(Integer.MAX_VALUE)
    void aDeletedRunLeavesEveryListAndViewAndARebuildDoesNotBringItBack() throws Exception {
        assertGoneEverywhere();
        HttpResponse<String> again = send("DELETE", "/api/v1/runs/" + STRAY);
        assertThat(again.statusCode()).as(again.body()).isEqualTo(404);
        assertThat(JSON.readTree(again.body()).path("deletedAt").asString()).isEqualTo(strayDeletedAt);
        HttpResponse<String> unknown = send("DELETE", "/api/v1/runs/no-such-run");
        assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(404);
        assertThat(JSON.readTree(unknown.body()).path("type").asString()).endsWith("/not-found");
        CliRun cliUnknown = CliRun.of("run", "delete", "no-such-run", "--url", uri("").toString());
        assertThat(cliUnknown.exit()).isEqualTo(1);
        assertThat(cliUnknown.err()).contains("answered 404").contains("no run with id 'no-such-run'");
        HttpResponse<String> end = HTTP.send(HttpRequest.newBuilder(uri("/api/v1/runs/" + STRAY + "/end"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(end.statusCode()).as("a lifecycle event for a deleted run: " + end.body()).isEqualTo(409);
        // the events API refuses it too: the whole batch, as for any invalid item
        HttpResponse<String> events = HTTP.send(HttpRequest.newBuilder(uri("/api/v1/events"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(String.format(
                        Locale.ROOT, "{\"runId\":\"%s\",\"events\":[{\"type\":\"run_ended\",\"endedAt\":\"%s\"}],"
                        + "\"samples\":[{\"timestamp\":\"%s\",\"source\":\"host\",\"metric\":\"cpu.cores\","
                        + "\"kind\":\"GAUGE\",\"value\":0.3}]}", STRAY, Instant.now(), Instant.now())))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(events.statusCode()).as("events for a deleted run: " + events.body()).isEqualTo(409);
        assertThat(JSON.readTree(events.body()).path("deletedAt").asString()).isEqualTo(strayDeletedAt);
        // and so does the CLI, which publishes to Kafka itself, bypassing the HTTP port
        CliRun cliEnd = CliRun.of("run", "end", "--run", STRAY, "--bootstrap-servers", stack.bootstrapServers());
        assertThat(cliEnd.exit()).as(cliEnd.out()).isEqualTo(1);
        assertThat(cliEnd.err()).contains("run '" + STRAY + "' was deleted at " + strayDeletedAt)
                .contains("start a new run under a new run id");

        // a test sent to the deleted id later is a new run, and the answer says why
        HttpResponse<String> write = HTTP.send(HttpRequest.newBuilder(uri("/write?db=" + STRAY + "&precision=s"))
                .POST(HttpRequest.BodyPublishers.ofString(line("cpu.cores", "host", 0.2,
                        Instant.now().getEpochSecond()))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(write.statusCode()).as(write.body()).isEqualTo(204);
        assertThat(write.headers().firstValue("X-Caplab-Landing").orElse(""))
                .startsWith(STRAY + ".2; as=new-run; samples=1");
        assertThat(write.headers().allValues("X-Caplab-Warning")).anyMatch(w -> w.contains(
                "run " + STRAY + " was deleted at " + strayDeletedAt));
        awaitListed(STRAY + ".2");

        String bootstrap = stack.bootstrapServers();
        long conclusionsBefore = SinkProgress.read(bootstrap, List.of(TopicCatalog.CONCLUSIONS), STRAY).keyed();
        RebuildReport rebuilt = Rebuild.run(rebuildSettings(), PATIENCE);
        assertThat(rebuilt.inputRecords()).isPositive();
        assertThat(SinkProgress.read(bootstrap, List.of(TopicCatalog.CONCLUSIONS), STRAY).keyed())
                .as("the rebuild re-derived the conclusion of " + STRAY).isGreaterThan(conclusionsBefore);
        // every record of every topic the sink reads, the rebuild's results among them, is stored
        SinkProgress.awaitStored(bootstrap, SinkProgress.read(bootstrap, SinkSettings.of(bootstrap).topics(), STRAY)
                .next(), PATIENCE);
        assertGoneEverywhere();
        assertNoRowOf(STRAY);
        assertEveryOtherRunHasTheRowsItWasSent();
    }

    /** Not one row of {@code runId} in any table of the schema but the record of its deletion. */
    private static void assertNoRowOf(String runId) throws Exception {
        for (Table table : Table.values()) {
            if (table != Table.DELETED_RUNS) {
                assertThat(sql("SELECT count() FROM " + table.sqlName() + " WHERE run_id = '" + runId + "'"))
                        .as(table + " rows of " + runId).isEqualTo("0");
            }
        }
    }

    /**
     * Every run the test sent but the stray one has each sample and series it was sent, its {@link #STEPS} steps, each
     * judged, its one run row and its one conclusion (latest versions).
     */
    private static void assertEveryOtherRunHasTheRowsItWasSent() throws Exception {
        Map<String, Long> samples = countsPerRun("samples");
        Map<String, Long> points = countsPerRun("sample_points");
        Map<String, Long> series = countsPerRun("sample_series FINAL");
        Map<String, Long> steps = countsPerRun("steps FINAL");
        Map<String, Long> verdicts = countsPerRun("step_verdicts FINAL");
        Map<String, Long> runs = countsPerRun("runs FINAL");
        Map<String, Long> conclusions = countsPerRun("run_conclusions FINAL");
        for (String runId : SAMPLES_SENT.keySet().stream().filter(r -> !r.equals(STRAY)).sorted().toList()) {
            assertThat(samples.get(runId)).as("samples of " + runId).isEqualTo(SAMPLES_SENT.get(runId).longValue());
            assertThat(points.get(runId)).as("points of " + runId).isEqualTo(SAMPLES_SENT.get(runId).longValue());
            assertThat(series.get(runId)).as("series of " + runId).isEqualTo((long) SERIES_SENT.get(runId).size());
            assertThat(steps.get(runId)).as("steps of " + runId).isEqualTo((long) STEPS);
            assertThat(verdicts.get(runId)).as("verdicts of " + runId).isEqualTo((long) STEPS);
            assertThat(runs.get(runId)).as("run " + runId).isEqualTo(1L);
            assertThat(conclusions.get(runId)).as("conclusion of " + runId).isEqualTo(1L);
        }
    }

    /** {@code SELECT run_id, count() FROM <from> GROUP BY run_id} through the SQL endpoint. */
    private static Map<String, Long> countsPerRun(String from) throws Exception {
        String statement = "SELECT run_id, count() FROM " + from + " GROUP BY run_id";
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri("/api/v1/sql?format=csv"))
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(statement)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(statement + ": " + r.body()).isEqualTo(200);
        Map<String, Long> out = new HashMap<>();
        for (String line : r.body().lines().toList()) {
            String[] cells = line.replace("\"", "").split(",");
            if (cells.length == 2 && cells[1].matches("\\d+")) {
                out.put(cells[0], Long.parseLong(cells[1]));
            }
        }
        return out;
    }

    /** Polls {@code statement}'s one value until it is {@code expected}. */
    private static void awaitSql(String statement, long expected) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        String last;
        while (!(last = sql(statement)).equals(Long.toString(expected))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(statement + " answered " + last + ", not " + expected);
            }
            Thread.sleep(250);
        }
    }

    private static void assertGoneEverywhere() throws Exception {
        for (String list : List.of("/api/v1/runs?limit=1000", "/api/v1/runs?sut=shop&tier=" + TIER)) {
            HttpResponse<String> r = get(list, "application/json");
            assertThat(r.statusCode()).as(list).isEqualTo(200);
            assertThat(JSON.readTree(r.body()).findValuesAsString("runId")).as(list).contains("shop-0")
                    .doesNotContain(STRAY);
        }
        for (String view : List.of("", "/steps", "/aggregates", "/fits", "/throughput", "/live", "/timeline",
                "/endpoints", "/report")) {
            // the report answers HTML, and its failures as problem+json to a client that takes either
            HttpResponse<String> r = get("/api/v1/runs/" + STRAY + view, view.equals("/report") ? "*/*"
                    : "application/json");
            assertThat(r.statusCode()).as(view + ": " + r.body()).isEqualTo(404);
            JsonNode problem = JSON.readTree(r.body());
            assertThat(problem.path("type").asString()).as(view).endsWith("/run-deleted");
            assertThat(problem.path("deletedAt").asString()).as(view).isEqualTo(strayDeletedAt);
            assertThat(problem.path("detail").asString()).as(view)
                    .isEqualTo("run '" + STRAY + "' was deleted at " + strayDeletedAt);
        }
        HttpResponse<String> compare = get("/api/v1/compare?sut=shop", "application/json");
        assertThat(compare.statusCode()).as(compare.body()).isEqualTo(200);
        assertThat(JSON.readTree(compare.body()).path("rows").findValuesAsString("runId")).contains("shop-0")
                .doesNotContain(STRAY);
        assertThat(get("/api/v1/compare?runId=" + STRAY, "application/json").statusCode()).isEqualTo(400);
        HttpResponse<String> history = get("/api/v1/history?sut=shop", "application/json");
        assertThat(JSON.readTree(history.body()).findValuesAsString("runId")).contains("shop-0").doesNotContain(STRAY);
        HttpResponse<String> plan = HTTP.send(HttpRequest.newBuilder(uri("/api/v1/plans"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"profile\":{\"name\":\"p\",\"load\":4},\"runIds\":[\"" + STRAY + "\"]}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(plan.statusCode()).as(plan.body()).isEqualTo(404);
        assertThat(get("/api/v1/report?run=" + STRAY, "*/*").statusCode()).isEqualTo(404);
    }

    /** The live app's settings but a 1 s grace: the rebuild's figures are not checked here, only what it shows. */
    private static StreamsSettings rebuildSettings() {
        StreamsSettings base = StreamsSettings.of(stack.bootstrapServers(), dataDir.resolve("rebuild"));
        return base.withTopology(base.topology().withGrace(Duration.ofSeconds(1)));
    }

    /** One value of the first row, as the SQL endpoint's CSV gives it. */
    private static String sql(String statement) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri("/api/v1/sql?format=csv"))
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(statement)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(statement + ": " + r.body()).isEqualTo(200);
        List<String> lines = r.body().lines().toList();
        return lines.getLast().replace("\"", "");
    }

    private static HttpResponse<String> send(String method, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri(path)).method(method, HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }


    /** Out of the runs list: the sink stored the deletion. */
    private static void awaitGone(String runId) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (get("/api/v1/runs/" + runId, "application/json").statusCode() != 404) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(runId + " still shown after its deletion");
            }
            Thread.sleep(250);
        }
    }

    private static JsonNode seriesNamed(JsonNode history, String name) {
        for (JsonNode s : history.path("series")) {
            if (s.path("series").asString().equals(name)) {
                return s;
            }
        }
        throw new AssertionError("no series " + name + " in " + history);
    }

    /** Run start, steps and samples and step ends, run end: as a load generator would send them (see SteppedRunOverHttp). */
    private static void send(Shape s, Instant start) throws Exception {
        STARTS.put(s.runId(), start);
        Set<String> series = SERIES_SENT.computeIfAbsent(s.runId(), k -> new HashSet<>());
        post("/api/v1/runs", String.format(Locale.ROOT, "{\"runId\":\"%s\",\"sut\":\"%s\",\"sutVersion\":\"%s\","
                + "\"tier\":\"%s\",\"provider\":\"lab\",\"vcpu\":4,\"tool\":\"k6\","
                + "\"slo\":[\"p95(http_req_duration)<=500\"],\"loadExpression\":\"users\",\"startedAt\":\"%s\"}",
                s.runId(), s.sut(), s.version(), TIER, start), 201, s.runId() + " start");
        String write = "/write?db=" + URLEncoder.encode(s.runId(), StandardCharsets.UTF_8) + "&precision=s";
        StringBuilder baseline = new StringBuilder();
        for (int k = 0; k < BASELINE_SECONDS; k++) {
            baseline.append(line("cpu.cores", "host", 0.05, start.getEpochSecond() + k));
        }
        SAMPLES_SENT.merge(s.runId(), BASELINE_SECONDS, Integer::sum);
        series.add("cpu.cores host");
        post(write, baseline.toString(), 204, s.runId() + " baseline");
        for (int step = 0; step < STEPS; step++) {
            double users = 2.0 * (step + 1);
            Instant stepStart = start.plusSeconds(BASELINE_SECONDS + (long) step * STEP_SECONDS);
            post("/api/v1/runs/" + s.runId() + "/steps", String.format(Locale.ROOT,
                    "{\"index\":%d,\"load\":{\"users\":%s},\"warmupSeconds\":4,\"startedAt\":\"%s\"}", step, users,
                    stepStart), 202, s.runId() + " step " + step);
            double cores = 0.1 + s.coresPerUser() * Math.min(users, s.knee())
                    + 3 * s.coresPerUser() * Math.max(0, users - s.knee());
            double latency = users > 1.2 * s.knee() ? 900 : 120;
            // one request per user and second until the knee, then no more: the throughput limit is the knee
            int requestsPerSecond = (int) Math.min(users, s.knee());
            StringBuilder lines = new StringBuilder();
            for (int k = 0; k < STEP_SECONDS; k++) {
                long t = stepStart.getEpochSecond() + k;
                lines.append(line("cpu.cores", "host", cores + (k % 3 - 1) * 0.01, t));
                for (int vu = 1; vu <= requestsPerSecond; vu++) {
                    lines.append(String.format(Locale.ROOT, "http_req_duration,source=client,vu=%d value=%s %d\n",
                            vu, latency, t));
                    series.add("http_req_duration client vu=" + vu);
                }
            }
            SAMPLES_SENT.merge(s.runId(), STEP_SECONDS * (1 + requestsPerSecond), Integer::sum);
            post(write, lines.toString(), 204, s.runId() + " step " + step + " samples");
            post("/api/v1/events", String.format(Locale.ROOT, "{\"runId\":\"%s\",\"events\":[{\"type\":\"step_ended\","
                    + "\"index\":%d,\"endedAt\":\"%s\"}]}", s.runId(), step, stepStart.plusSeconds(STEP_SECONDS)),
                    202, s.runId() + " step " + step + " end");
        }
        // every sample sent and acknowledged: the last step closes at once, not after the grace
        post("/api/v1/runs/" + s.runId() + "/end", String.format(Locale.ROOT, "{\"endedAt\":\"%s\",\"allSamplesSent\":true}",
                start.plusSeconds(BASELINE_SECONDS + (long) STEPS * STEP_SECONDS)), 202, s.runId() + " end");
    }

    /** Ended, every step judged and the CPU fit made over all of them. */
    private static void await(String runId) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        String last = null;
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = get("/api/v1/runs/" + runId, "application/json");
            last = r.body();
            if (r.statusCode() == 200) {
                JsonNode d = JSON.readTree(r.body());
                boolean judged = d.path("steps").size() == STEPS;
                for (JsonNode step : d.path("steps")) {
                    judged &= !step.path("passed").isNull();
                }
                boolean fitted = false;
                for (JsonNode f : d.path("fits")) {
                    fitted |= f.path("metric").asString().equals("cpu.cores") && f.path("stepsUsed").asInt() == STEPS;
                }
                boolean ended = !d.path("run").path("status").asString().equals("RUNNING");
                if (judged && fitted && ended) {
                    return;
                }
            }
            Thread.sleep(500);
        }
        throw new AssertionError(runId + " never judged and fitted; last seen: " + last);
    }

    private static void awaitListed(String runId) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (get("/api/v1/runs/" + runId, "application/json").statusCode() != 200) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(runId + " never listed");
            }
            Thread.sleep(250);
        }
    }

    private static String line(String metric, String source, double value, long epochSecond) {
        return String.format(Locale.ROOT, "%s,source=%s value=%s %d\n", metric, source, value, epochSecond);
    }

    private static void post(String path, String body, int expected, String what) throws Exception {
        WriteClients.post(HTTP, uri(path), body.getBytes(StandardCharsets.UTF_8),
                body.startsWith("{") ? "application/json" : "text/plain", null, expected, what);
    }

    private static HttpResponse<String> get(String path, String accept) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri(path)).header("Accept", accept).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + stack.httpPort() + path);
    }
}
