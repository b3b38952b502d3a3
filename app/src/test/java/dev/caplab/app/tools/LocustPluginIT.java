package dev.caplab.app.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.app.MeasuresHost;
import dev.caplab.app.RepoRoot;
import dev.caplab.app.up.EmbeddedStack;
import dev.caplab.app.up.UpSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Debian's Locust, headless, with the caplab plugin ({@code ingest/locust-plugin}) streaming a stepped run against a
 * real server into a running caplab; the server's CPU comes in as {@code cpu.cores}. What arrives in ClickHouse is
 * checked against Locust's own statistics and against the workload's design:
 *
 * <p>The server ({@link PooledServer}) has {@value #WORKERS} workers and holds one for {@value #SERVICE_MILLIS} ms per
 * request, {@value #CPU_MILLIS} ms of it on CPU: capacity 2 / 0.2 s = 10 requests/s. Each user paces itself to
 * {@value #RATE} requests/s, so the server saturates at 10 / 2 = 5 users: below it CPU grows 2 × 0.020 = 0.04 cores
 * per user, above it stays at 10 × 0.020 = 0.2 cores. Latency below saturation is one service time plus at most the
 * waits of a full collision (4 users, 2 workers: ≤ 400 ms); above it a closed loop of N users through 10/s takes N/10 s
 * per request (7 users: 700 ms). Hence the SLO {@value #SLO} passes up to 4 users and fails from 7. Service times
 * long against scheduling delays (200 ms, a worker needing a tenth of a core) keep this true on a busy 2-core machine;
 * the first {@value #WARMUP_SECONDS} s of each step (Locust's first connection, the queue filling) are warm-up.
 */
@MeasuresHost
class LocustPluginIT {

    private static final String RUN = "locust-it";
    private static final String LOAD_SOURCE = "locust-it-lg";
    private static final int[] LEVELS = {1, 2, 3, 4, 7, 9, 12};
    private static final int STEP_SECONDS = 5;
    private static final double RATE = 2;
    private static final int WORKERS = 2;
    private static final int CPU_MILLIS = 20;
    private static final int SERVICE_MILLIS = 200;
    private static final int WARMUP_SECONDS = 2;
    private static final double CAPACITY_PER_SECOND = WORKERS * 1000.0 / SERVICE_MILLIS;
    private static final double DESIGNED_KNEE_USERS = CAPACITY_PER_SECOND / RATE;
    private static final String SLO = "p95(http.req.duration.ms)<=550";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    @Test
    void steppedRunArrivesWithItsStepsVerdictsAndTheCpuKneeWhereTheServerSaturates() throws Exception {
        Path locust = RealTools.locust();
        Path root = RepoRoot.find();
        Path locustfile = dir.resolve("locustfile.py");
        Files.copy(LocustPluginIT.class.getResourceAsStream("/tools/stepped_locustfile.py"), locustfile);
        try (EmbeddedStack stack = EmbeddedStack.start(new UpSettings(dir.resolve("data"), "127.0.0.1", 0, 0, 0,
                false, null, List.of()), new PrintStream(new ByteArrayOutputStream()));
             SutProcess sut = SutProcess.start(WORKERS, CPU_MILLIS, SERVICE_MILLIS)) {
            warmUp(sut);
            Path log = dir.resolve("locust.log");
            try (SutCpuFeed feed = SutCpuFeed.start(sut, stack.httpPort(), RUN)) {
                ProcessBuilder command = new ProcessBuilder(locust.toString(), "-f", locustfile.toString(),
                        "--headless", "--host", sut.baseUrl(), "--csv", dir.resolve("locust").toString(), "--csv-full-history",
                        "--caplab-url", "http://127.0.0.1:" + stack.httpPort(), "--caplab-run", RUN,
                        "--caplab-source", LOAD_SOURCE, "--caplab-sut", "pooled-server", "--caplab-slo", SLO,
                        "--caplab-steps", "--caplab-warmup", Integer.toString(WARMUP_SECONDS))
                        .redirectErrorStream(true).redirectOutput(log.toFile());
                command.environment().put("PYTHONPATH", root.resolve("ingest/locust-plugin").toString());
                command.environment().put("CAPLAB_IT_LEVELS",
                        Arrays.stream(LEVELS).mapToObj(Integer::toString).collect(Collectors.joining(",")));
                command.environment().put("CAPLAB_IT_STEP_SECONDS", Integer.toString(STEP_SECONDS));
                command.environment().put("CAPLAB_IT_RATE", Double.toString(RATE));
                command.environment().put("CAPLAB_IT_ORACLE", dir.resolve("oracle.json").toString());
                Process run = command.start();
                boolean finished = run.waitFor(LEVELS.length * STEP_SECONDS + 30, TimeUnit.SECONDS);
                if (!finished) {
                    run.destroyForcibly();
                }
                assertThat(finished).as("locust finished:\n" + Files.readString(log)).isTrue();
                assertThat(run.exitValue()).as(Files.readString(log)).isZero();
                assertThat(Files.readString(log)).doesNotContain("caplab: ");
            }
            StackSql sql = new StackSql(stack);

            // the last fit covers every step: the run has closed
            List<Map<String, Object>> fit = sql.await("SELECT steps_used, toJSONString(segments) AS segments_json,"
                    + " toJSONString(breakpoints) AS breakpoints_json, model "
                    + "FROM capacity_fits FINAL WHERE run_id = '" + RUN + "' AND metric = 'cpu.cores' AND source = '"
                    + SutCpuFeed.SOURCE + "'", rows -> !rows.isEmpty()
                    && ((Number) rows.getFirst().get("steps_used")).intValue() == LEVELS.length, Duration.ofSeconds(90));

            // every request Locust counted arrived, as one sample each
            LocustStats.Completions completions = LocustStats.Completions.read(dir.resolve("oracle.json"));
            long locustRequests = completions.requests();
            assertThat(locustRequests).isPositive().isEqualTo(completions.micros().length);
            assertThat(sql.count("SELECT count() FROM samples WHERE run_id = '" + RUN
                    + "' AND metric = 'http.req.duration.ms' AND source = '" + LOAD_SOURCE + "'"))
                    .isEqualTo(locustRequests);
            assertThat(sql.count("SELECT count() FROM samples WHERE run_id = '" + RUN
                    + "' AND metric = 'http.req.duration.ms' AND labels['success'] != 'true'")).isZero();

            assertThat(sql.rows("SELECT sut_name, tool, load_expression, status,"
                    + " arrayStringConcat(arrayMap(r -> tupleElement(r, 'metric'), slo_rules), ',') AS rule_metrics"
                    + " FROM runs FINAL "
                    + "WHERE run_id = '" + RUN + "'")).singleElement().satisfies(r -> {
                        assertThat(r).containsEntry("sut_name", "pooled-server").containsEntry("tool", "locust")
                                .containsEntry("load_expression", "users").containsEntry("status", "COMPLETED");
                        assertThat((String) r.get("rule_metrics")).contains("http.req.duration.ms");
                    });

            // one declared step per level, each about as long as the shape holds it (its worker ticks once a second)
            List<Map<String, Object>> steps = sql.rows("SELECT step_index, load['users'] AS users, "
                    + "toUnixTimestamp64Micro(started_at) AS from_us, toUnixTimestamp64Micro(ended_at) AS to_us "
                    + "FROM steps FINAL WHERE run_id = '" + RUN + "' ORDER BY step_index");
            assertThat(steps).extracting(r -> ((Number) r.get("users")).intValue())
                    .containsExactly(Arrays.stream(LEVELS).boxed().toArray(Integer[]::new));
            double[] stepSeconds = new double[LEVELS.length];
            for (int i = 0; i < LEVELS.length; i++) {
                Map<String, Object> step = steps.get(i);
                assertThat(step.get("to_us")).as("step %d ended", i).isNotNull();
                stepSeconds[i] = (micros(step, "to_us") - micros(step, "from_us")) / 1e6;
                assertThat(stepSeconds[i]).as("step %d seconds", i).isCloseTo(STEP_SECONDS, within(1.5));
            }

            // requests per step as Locust's request events timed them: a step merges the whole-second partials
            // that start inside it (warm-up included, warmup_count being the part of it in warm-up), so a request
            // in the first step's opening fraction of a second falls in the pre-test baseline (index -1, no step,
            // left out here). The plugin stamps a request a few microseconds before the oracle's listener does:
            // one request at each end of a step may sit on either side of a second's start
            List<Map<String, Object>> aggregates = sql.rows("SELECT step_index, sample_count AS n "
                    + "FROM step_aggregates FINAL WHERE run_id = '" + RUN + "' AND metric = 'http.req.duration.ms' "
                    + "AND source = '" + LOAD_SOURCE + "' AND step_index >= 0 ORDER BY step_index");
            String tables = "steps " + steps + "\nrequests per step " + aggregates;
            assertThat(aggregates).as(tables).hasSize(LEVELS.length);
            long assigned = 0;
            for (int i = 0; i < LEVELS.length; i++) {
                long n = ((Number) aggregates.get(i).get("n")).longValue();
                assigned += n;
                long expected = completions.inSecondsStartingBetween(micros(steps.get(i), "from_us"),
                        micros(steps.get(i), "to_us"));
                assertThat(n).as("requests in step %d (%d users); %s", i, LEVELS[i], tables)
                        .isCloseTo(expected, within(2L));
            }
            assertThat(assigned).isLessThanOrEqualTo(locustRequests);

            // where the server actually saturated, from Locust's own counts over the saturated levels (warm-up
            // skipped): its design caps it at 10/s; a starved machine gives less, and the knee moves with it.
            // Locust's history (cumulative counts once a second) stops a few seconds before it quits: its final
            // count closes the last step
            List<LocustStats.HistoryRow> history = new java.util.ArrayList<>(
                    LocustStats.history(dir.resolve("locust_stats_history.csv")));
            long runEndSecond = (micros(steps.getLast(), "to_us") + 999_999) / 1_000_000;
            if (history.getLast().epochSecond() < runEndSecond) {
                history.add(new LocustStats.HistoryRow(runEndSecond, LEVELS[LEVELS.length - 1], locustRequests));
            }
            long saturatedFrom = history.stream().filter(r -> r.users() >= LEVELS[4]).findFirst().orElseThrow()
                    .epochSecond() + WARMUP_SECONDS;
            List<LocustStats.HistoryRow> saturated = history.stream()
                    .filter(r -> r.users() >= LEVELS[4] && r.epochSecond() >= saturatedFrom).toList();
            double servedPerSecond = (saturated.getLast().totalRequests() - saturated.getFirst().totalRequests())
                    / (double) (saturated.getLast().epochSecond() - saturated.getFirst().epochSecond());
            assertThat(servedPerSecond).as("requests/s at saturation (design %s)", CAPACITY_PER_SECOND)
                    .isBetween(0.5 * CAPACITY_PER_SECOND, 1.1 * CAPACITY_PER_SECOND);
            double saturationUsers = servedPerSecond / RATE;

            // verdicts: the SLO holds while the server keeps up and breaks once users queue (a closed loop of 7
            // users through at most 10/s waits at least 700 ms a request, whatever the machine)
            List<Map<String, Object>> verdicts = sql.rows("SELECT step_index, passed, toJSONString(outcomes) AS outcomes_json "
                    + "FROM step_verdicts FINAL WHERE run_id = '" + RUN + "' ORDER BY step_index");
            assertThat(verdicts).hasSize(LEVELS.length);
            for (int i = 0; i < LEVELS.length; i++) {
                if (LEVELS[i] == 1 || LEVELS[i] > DESIGNED_KNEE_USERS) {
                    assertThat(verdicts.get(i).get("passed")).as("step %d (%d users) passed: %s", i, LEVELS[i],
                            verdicts.get(i).get("outcomes_json")).isEqualTo(LEVELS[i] < DESIGNED_KNEE_USERS);
                }
            }

            // CPU per step: 0.04 cores/user below saturation, flat from it on. The flattening happens far below any
            // CPU ceiling (the server is capped by its 10/s, not by a core), so it is slower growth, not a capacity
            // knee: the CPU fit draws none and the saturation is the throughput limit's (checked below).
            Map<String, Object> cpu = fit.getFirst();
            JsonNode breakpoints = JSON.readTree((String) cpu.get("breakpoints_json"));
            List<Map<String, Object>> perStep = sql.rows("SELECT step_index, sustained, sample_count "
                    + "FROM step_aggregates FINAL WHERE run_id = '" + RUN + "' AND metric = 'cpu.cores' ORDER BY step_index");
            String detail = "fit " + cpu + "\nCPU per step " + perStep;
            assertThat(breakpoints.size()).as("no CPU knee below the ceiling; %s", detail).isZero();
            // arithmetic on the stored per-step CPU: least-squares slopes below and above saturation. CPU per request is
            // the 20 ms burned plus the server's own HTTP handling: 0.04 cores/user, +40 %; -25 % when a starved
            // machine stretches requests past the 500 ms a user's pace allows
            assertThat(slope(perStep, i -> LEVELS[i] < saturationUsers)).as(detail)
                    .isBetween(RATE * CPU_MILLIS / 1000.0 * 0.75, RATE * CPU_MILLIS / 1000.0 * 1.4);
            assertThat(Math.abs(slope(perStep, i -> LEVELS[i] > saturationUsers + 1.5))).as(detail)
                    .isLessThan(RATE * CPU_MILLIS / 1000.0 / 3);

            throughputAgainstLoad(stack, sql, saturationUsers, servedPerSecond);
        }
    }

    /**
     * The run's throughput endpoint, which the run page draws: per step the requests/s and p50/p95/p99 of the samples
     * Locust sent, recomputed here from the raw samples in ClickHouse (a step's steady part is its whole seconds from
     * the end of warm-up, as its partials are), and the throughput limit where the server saturated.
     */
    private static void throughputAgainstLoad(EmbeddedStack stack, StackSql sql, double saturationUsers,
            double servedPerSecond) throws Exception {
        sql.await("SELECT steps_used FROM capacity_fits FINAL WHERE run_id = '" + RUN + "' AND metric = '"
                + "throughput.requests.per_s'", rows -> !rows.isEmpty()
                && ((Number) rows.getFirst().get("steps_used")).intValue() == LEVELS.length, Duration.ofSeconds(60));
        List<Map<String, Object>> steps = sql.rows("SELECT step_index, warmup_micros, "
                + "toUnixTimestamp64Micro(started_at) AS from_us, toUnixTimestamp64Micro(ended_at) AS to_us "
                + "FROM steps FINAL WHERE run_id = '" + RUN + "' ORDER BY step_index");
        List<Map<String, Object>> samples = sql.rows("SELECT intDiv(toUnixTimestamp64Micro(ts), 1000000) "
                + "* 1000000 AS bucket_us, value FROM samples WHERE run_id = '" + RUN
                + "' AND metric = 'http.req.duration.ms'");
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                "http://127.0.0.1:" + stack.httpPort() + "/api/v1/runs/" + RUN + "/throughput")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode throughput = JSON.readTree(response.body());
        assertThat(throughput.path("steps").size()).as(response.body()).isEqualTo(LEVELS.length);
        double peakSaturatedRate = 0;
        for (int i = 0; i < LEVELS.length; i++) {
            long from = Math.max(micros(steps.get(i), "from_us"), micros(steps.get(i), "from_us")
                    + micros(steps.get(i), "warmup_micros"));
            long to = micros(steps.get(i), "to_us");
            double[] steady = samples.stream().filter(r -> micros(r, "bucket_us") >= from && micros(r, "bucket_us") < to)
                    .mapToDouble(r -> ((Number) r.get("value")).doubleValue()).sorted().toArray();
            double seconds = Math.ceilDiv(to, 1_000_000L) - Math.ceilDiv(from, 1_000_000L);
            JsonNode step = throughput.path("steps").get(i);
            String context = "step " + i + " (" + LEVELS[i] + " users): " + step;
            assertThat(step.path("requests").asLong()).as(context).isEqualTo(steady.length);
            assertThat(step.path("requestsPerSecond").asDouble()).as(context)
                    .isCloseTo(steady.length / seconds, within(1e-9));
            if (LEVELS[i] > DESIGNED_KNEE_USERS) {
                peakSaturatedRate = Math.max(peakSaturatedRate, steady.length / seconds);
            }
            assertThat(step.path("errorRatio").asDouble()).as(context).isZero();
            for (String[] q : new String[][] {{"latencyP50Ms", "0.5"}, {"latencyP95Ms", "0.95"},
                    {"latencyP99Ms", "0.99"}}) {
                // the order statistic DDSketch estimates, rank floor(q·(n−1)); its bound is 1 % of the value
                double exact = steady[(int) Math.floor(Double.parseDouble(q[1]) * (steady.length - 1))];
                assertThat(step.path(q[0]).asDouble()).as(context).isCloseTo(exact, within(exact * 0.01));
            }
        }
        JsonNode limit = throughput.path("throughputLimit");
        assertThat(limit.isObject()).as("a throughput limit: " + response.body()).isTrue();
        assertThat(limit.path("kneeX").asDouble()).as("saturation at %s users; %s", saturationUsers, limit)
                .isBetween(saturationUsers - 1.5, saturationUsers + 1.5);
        assertThat(limit.path("kneeLower95").asDouble()).isLessThanOrEqualTo(limit.path("kneeX").asDouble());
        assertThat(limit.path("kneeUpper95").asDouble()).isGreaterThanOrEqualTo(limit.path("kneeX").asDouble());
        // the plateau is the fitted rate at the knee, the most the server gave; on a starved machine the rate falls
        // as more users (and Locust itself) compete for the cores (a CI: 11.6/s at the knee, -0.70/s per user after
        // it, 9.1/s over the saturated steps on average), so it is compared with the best saturated step, not the mean
        assertThat(limit.path("plateauRatePerSecond").asDouble()).as("best saturated step %s/s (%s/s over all of "
                + "them); %s", peakSaturatedRate, servedPerSecond, limit)
                .isCloseTo(peakSaturatedRate, within(0.25 * peakSaturatedRate));
        // no generator CPU was sampled: nothing to say about it
        assertThat(limit.path("generatorLimited").asBoolean()).isFalse();
        assertThat(throughput.path("sloLines").get(0).path("threshold").asDouble()).isEqualTo(550.0);
    }

    /** A few requests first, so the SUT's JIT and class loading fall before the run. */
    private static void warmUp(SutProcess sut) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(sut.baseUrl() + "/warm"))
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
        }
    }

    private static long micros(Map<String, Object> row, String column) {
        return ((Number) row.get(column)).longValue();
    }

    /** Least-squares slope of sustained CPU against users over the steps {@code included} picks (by step index). */
    private static double slope(List<Map<String, Object>> perStep, java.util.function.IntPredicate included) {
        double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (Map<String, Object> row : perStep) {
            int i = ((Number) row.get("step_index")).intValue();
            if (i < 0 || !included.test(i)) { // -1: the baseline before the first step
                continue;
            }
            double x = LEVELS[i];
            double y = ((Number) row.get("sustained")).doubleValue();
            n++;
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
        }
        return (n * sxy - sx * sy) / (n * sxx - sx * sx);
    }
}
