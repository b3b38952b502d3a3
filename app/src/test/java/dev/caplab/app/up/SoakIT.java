package dev.caplab.app.up;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.app.MeasuresHost;
import dev.caplab.app.load.HeapAfterGc;
import dev.caplab.app.load.K6LikeLines;
import dev.caplab.app.load.SteppedRunOverHttp;
import dev.caplab.app.load.WriteClients;
import dev.caplab.broker.CommittedRecords;
import dev.caplab.schema.topic.DeadLetterHeaders;
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
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue #11's soak: through the public ingest path of one {@code caplab up} in this JVM, a k6-like run of
 * {@value #DEFAULT_RUN_A_POINTS} points (steps inferred from {@code vus}), a run of 50,000 series with 1 KiB labels,
 * 1,000 small runs and a 1 MiB line; then a normal stepped run must still be stepped, judged and fitted. Every
 * acknowledged sample is stored exactly once, nothing valid is dead-lettered, health is UP; prints wall time and
 * rate per phase, the peak heap after GC and the Streams state-store bytes. {@code -Dcaplab.soak.points=N} changes
 * run A's size (a multiple of 5 × 5,000).
 */
@MeasuresHost
class SoakIT {

    static final long DEFAULT_RUN_A_POINTS = 1_000_000L;
    private static final long RUN_A_POINTS = Long.getLong("caplab.soak.points", DEFAULT_RUN_A_POINTS);
    private static final int RUN_A_STEPS = 5;
    private static final long RUN_A_SPACING_NANOS = 300_000L;
    private static final int LINES_PER_BATCH = 5_000;
    private static final int CLIENTS = 2;
    private static final int RUN_B_SERIES = 50_000;
    private static final int RUN_B_POINTS_PER_SERIES = 3;
    private static final int LABEL_BYTES = 1024;
    private static final int SMALL_RUNS = 1_000;
    private static final int SMALL_RUN_POINTS = 10;
    private static final int HUGE_TAG_BYTES = 1024 * 1024;
    private static final Duration STORED_WITHIN = Duration.ofMinutes(4);
    private static final String RUN_A = "soak-a";
    private static final String RUN_B = "soak-b";
    private static final String SMALL_PREFIX = "soak-small-";
    private static final String HUGE_RUN = "soak-huge";
    private static final String STEPPED_RUN = "soak-stepped";
    private static final HttpClient HTTP = WriteClients.newClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dataDir;

    private final List<SoakPhase> phases = new ArrayList<>();

    @Test
    void bigRunsManySeriesManyRunsAndAHugeLineLeaveTheNextSteppedRunSteppedJudgedAndFitted() throws Exception {
        long perStep = RUN_A_POINTS / RUN_A_STEPS;
        assertThat(perStep * RUN_A_STEPS == RUN_A_POINTS && perStep % LINES_PER_BATCH == 0)
                .as("run A's points split into %d steps of whole %d-line batches", RUN_A_STEPS, LINES_PER_BATCH)
                .isTrue();
        try (HeapAfterGc heap = HeapAfterGc.watch();
             EmbeddedStack stack = EmbeddedStack.start(new UpSettings(dataDir, "127.0.0.1", 0, 0, 0, false, null,
                     List.of()), new PrintStream(new ByteArrayOutputStream()))) {
            SoakPhase.Probe probe = new SoakPhase.Probe(stack, heap, dataDir.resolve("streams"));

            // A: k6's InfluxDB output for a run nobody started; vus constant per step, so steps are inferred.
            phase(probe, "A: 1 run, k6-like", RUN_A_POINTS, () -> write(stack, RUN_A,
                    (int) (RUN_A_POINTS / LINES_PER_BATCH), LINES_PER_BATCH, i -> {
                        long first = (long) i * LINES_PER_BATCH;
                        int step = (int) (first / perStep);
                        return K6LikeLines.batch(RUN_A, first, LINES_PER_BATCH, K6LikeLines.START_NANOS,
                                RUN_A_SPACING_NANOS, new K6LikeLines.Load(step, 10 * (step + 1)));
                    }), () -> assertStoredOnce(stack, RUN_A, RUN_A_POINTS));

            long runBPoints = (long) RUN_B_SERIES * RUN_B_POINTS_PER_SERIES;
            phase(probe, "B: 50,000 series, 1 KiB labels", runBPoints, () -> write(stack, RUN_B,
                    (int) (runBPoints / LINES_PER_BATCH), LINES_PER_BATCH, SoakIT::manySeriesBatch),
                    () -> assertStoredOnce(stack, RUN_B, runBPoints));

            phase(probe, "small: 1,000 runs × 10", (long) SMALL_RUNS * SMALL_RUN_POINTS, () -> write(stack,
                    "soak-small", SMALL_RUNS, SMALL_RUN_POINTS, i -> K6LikeLines.batch(smallRun(i), 0,
                            SMALL_RUN_POINTS, K6LikeLines.START_NANOS, 1_000_000L)),
                    () -> assertSmallRunsStoredOnce(stack));

            phase(probe, "huge: one 1 MiB line", 1, () -> hugeLine(stack), () -> {
            });

            phase(probe, "stepped run after all that", SteppedRunOverHttp.samples(), () -> {
                SteppedRunOverHttp.send(HTTP, base(stack), STEPPED_RUN, Instant.parse("2024-03-05T08:00:00Z"), null);
                return SteppedRunOverHttp.samples();
            }, () -> assertSteppedJudgedAndFitted(stack));

            HttpResponse<String> health = get(stack, "/api/v1/health");
            assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
            assertThat(health.body()).contains("\"status\":\"UP\"");
            assertNoDeadLettersForValidInput(stack);
            SoakPhase.print(System.out, phases, heap.collections());
        }
    }

    /** Runs one phase: {@code send} returns the samples acknowledged; {@code stored} waits for them in ClickHouse. */
    private void phase(SoakPhase.Probe probe, String name, long samples, Send send, Stored stored) throws Exception {
        long started = System.nanoTime();
        long acknowledged = send.run();
        long sent = System.nanoTime();
        assertThat(acknowledged).as(name + ": samples acknowledged").isEqualTo(samples);
        stored.await();
        SoakPhase phase = probe.phase(name, samples, Duration.ofNanos(sent - started),
                Duration.ofNanos(System.nanoTime() - started));
        phases.add(phase);
        System.out.println("soak: " + phase);
    }

    /** Posts {@code batches} bodies of {@code lines} lines each to /write with {@link #CLIENTS} clients. */
    private static long write(EmbeddedStack stack, String db, int batches, int lines, IntFunction<byte[]> batch)
            throws InterruptedException {
        return WriteClients.run(base(stack).resolve("/write?db=" + db + "&precision=ns"), batches, batch, lines,
                CLIENTS, null).points();
    }

    /** Lines [i·5,000, (i+1)·5,000) of run B: point p of series s is line p·50,000 + s, one series per url. */
    private static byte[] manySeriesBatch(int i) {
        StringBuilder out = new StringBuilder(LINES_PER_BATCH * (LABEL_BYTES + 80));
        for (long line = (long) i * LINES_PER_BATCH; line < (long) (i + 1) * LINES_PER_BATCH; line++) {
            int series = (int) (line % RUN_B_SERIES);
            long point = line / RUN_B_SERIES;
            String prefix = String.format("https://soak.test/%06d/", series);
            out.append("http_req_duration,run=").append(RUN_B).append(",url=").append(prefix)
                    .append("x".repeat(LABEL_BYTES - prefix.length())).append(" value=").append(series)
                    .append(' ').append(K6LikeLines.START_NANOS + point * 60_000_000_000L + series * 1_000_000L)
                    .append('\n');
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String smallRun(int i) {
        return String.format("%s%04d", SMALL_PREFIX, i);
    }

    /**
     * One line of 1 MiB (its tag value alone): refused with a 4xx naming the line or the tag, never a 5xx, which a
     * client would retry forever. The door bounds a label value by the same SampleShape the sink stores raw samples
     * by and streams aggregates them by, so a line the door took would only be set aside further on.
     */
    private long hugeLine(EmbeddedStack stack) throws Exception {
        String body = "huge,run=" + HUGE_RUN + ",blob=" + "y".repeat(HUGE_TAG_BYTES) + " value=1 "
                + K6LikeLines.START_NANOS + "\n";
        HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(base(stack).resolve("/write?db=" + HUGE_RUN))
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        String said = answer.body().length() > 500 ? answer.body().substring(0, 500) + "…" : answer.body();
        System.out.println("soak: the 1 MiB line was answered " + answer.statusCode() + " " + said);
        assertThat(answer.statusCode()).as(said).isBetween(400, 499);
        assertThat(answer.body()).as("the refusal names the line or the tag").containsAnyOf("line 1", "blob");
        return 1;
    }

    private static void assertStoredOnce(EmbeddedStack stack, String runId, long acknowledged) throws Exception {
        // Each metric's lines of these runs have their own timestamps: as many distinct as rows means no duplicate.
        awaitStored(stack, runId + " rows", "SELECT count() FROM samples WHERE run_id = '" + runId + "'",
                acknowledged);
        assertThat(query(stack, "SELECT uniqExact(ts, metric) FROM samples WHERE run_id = '" + runId + "'"))
                .as(runId + " distinct (timestamp, metric)").isEqualTo(acknowledged);
    }

    private static void assertSmallRunsStoredOnce(EmbeddedStack stack) throws Exception {
        long expected = (long) SMALL_RUNS * SMALL_RUN_POINTS;
        String where = " FROM samples WHERE startsWith(run_id, '" + SMALL_PREFIX + "')";
        awaitStored(stack, "small runs' rows", "SELECT count()" + where, expected);
        assertThat(query(stack, "SELECT uniqExact(run_id, ts)" + where)).isEqualTo(expected);
        assertThat(query(stack, "SELECT count() FROM (SELECT run_id, count() AS n" + where
                + " GROUP BY run_id HAVING n = " + SMALL_RUN_POINTS + ")")).as("runs with all their samples")
                .isEqualTo(SMALL_RUNS);
    }

    /** Waits until {@code sql} counts {@code expected}; fails at once beyond it (stored twice), or after the wait. */
    private static void awaitStored(EmbeddedStack stack, String what, String sql, long expected) throws Exception {
        long deadline = System.nanoTime() + STORED_WITHIN.toNanos();
        long count = 0;
        while (System.nanoTime() < deadline) {
            count = query(stack, sql);
            assertThat(count).as(what + " (more than acknowledged: stored twice)").isLessThanOrEqualTo(expected);
            if (count == expected) {
                return;
            }
            Thread.sleep(500);
        }
        throw new AssertionError(what + ": " + count + " of " + expected + " stored after " + STORED_WITHIN
                + "; roles " + stack.roleStatuses());
    }

    /** Steps 0-4 pass and 5-7 fail p95(http_req_duration)<=500, so stable at 10 users; a CPU fit is in. */
    private static void assertSteppedJudgedAndFitted(EmbeddedStack stack) throws Exception {
        long deadline = System.nanoTime() + STORED_WITHIN.toNanos();
        String missing = "no run detail";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> answer = get(stack, "/api/v1/runs/" + STEPPED_RUN);
            if (answer.statusCode() == 200) {
                JsonNode detail = JSON.readTree(answer.body());
                missing = missing(detail);
                if (missing.isEmpty()) {
                    List<Boolean> passed = new ArrayList<>();
                    detail.path("steps").forEach(s -> passed.add(s.path("passed").asBoolean()));
                    assertThat(passed).containsExactly(true, true, true, true, true, false, false, false);
                    assertThat(detail.path("maxStableX").asDouble()).isEqualTo(SteppedRunOverHttp.users(4));
                    assertThat(detail.path("failedX").asDouble())
                            .isEqualTo(SteppedRunOverHttp.users(SteppedRunOverHttp.FIRST_FAILING_STEP));
                    assertStoredOnce(stack, STEPPED_RUN, SteppedRunOverHttp.samples());
                    return;
                }
            }
            Thread.sleep(1000);
        }
        throw new AssertionError("run " + STEPPED_RUN + " not stepped, judged and fitted within " + STORED_WITHIN
                + ": " + missing + "; roles " + stack.roleStatuses());
    }

    /** What the stepped run's detail still lacks, or "" when every step has a verdict and the CPU fit is in. */
    private static String missing(JsonNode detail) {
        List<String> lacking = new ArrayList<>();
        JsonNode steps = detail.path("steps");
        if (steps.size() != SteppedRunOverHttp.STEPS) {
            lacking.add(steps.size() + " of " + SteppedRunOverHttp.STEPS + " steps");
        }
        List<Integer> unjudged = new ArrayList<>();
        steps.forEach(s -> {
            if (!s.path("passed").isBoolean()) {
                unjudged.add(s.path("stepIndex").asInt());
            }
        });
        if (!unjudged.isEmpty()) {
            lacking.add("no verdict for steps " + unjudged);
        }
        List<String> fitted = new ArrayList<>();
        detail.path("fits").forEach(f -> fitted.add(f.path("metric").asString()));
        if (!fitted.contains("cpu.cores")) {
            lacking.add("no cpu.cores fit (fits: " + fitted + ")");
        }
        return String.join("; ", lacking);
    }

    /**
     * No dead letter at all: every input the door took is valid, and the one over a documented limit (the 1 MiB
     * tag) was refused at the door, so nothing of it reached Kafka.
     */
    private void assertNoDeadLettersForValidInput(EmbeddedStack stack) {
        List<String> dead = new ArrayList<>();
        Map<String, Integer> perKey = new HashMap<>();
        for (ConsumerRecord<String, byte[]> r : CommittedRecords.read(stack.bootstrapServers(),
                TopicCatalog.DEAD_LETTER, Duration.ofSeconds(30))) {
            perKey.merge(String.valueOf(r.key()), 1, Integer::sum);
            Header header = r.headers().lastHeader(DeadLetterHeaders.REASON);
            String reason = header == null ? "no reason" : new String(header.value(), StandardCharsets.UTF_8);
            dead.add(r.key() + ": " + reason);
        }
        System.out.println("soak: dead letters per key " + perKey);
        assertThat(dead).as("dead letters for valid input").isEmpty();
    }

    private static long query(EmbeddedStack stack, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(stack.clickhouseJdbcUrl(), "default", "");
             PreparedStatement s = c.prepareStatement(sql);
             ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static HttpResponse<String> get(EmbeddedStack stack, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(base(stack).resolve(path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static URI base(EmbeddedStack stack) {
        return URI.create("http://127.0.0.1:" + stack.httpPort());
    }

    /** Sends a phase's input; returns the samples acknowledged. */
    @FunctionalInterface
    private interface Send {
        long run() throws Exception;
    }

    /** Waits for (and checks) what a phase sent in ClickHouse. */
    @FunctionalInterface
    private interface Stored {
        void await() throws Exception;
    }
}
