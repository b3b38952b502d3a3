package dev.caplab.app.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.app.CaplabCli;
import dev.caplab.app.MeasuresHost;
import dev.caplab.app.RepoRoot;
import dev.caplab.app.load.WriteClients;
import dev.caplab.app.up.EmbeddedStack;
import dev.caplab.app.up.UpSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Apache JMeter 5.6.3 from Maven Central (laid out by the jmeter-home module), non-GUI in its own JVM, at two load
 * levels ({@link #LEVELS} threads, {@value #SECONDS} s each, one JMeter process and one declared step per level),
 * each thread looping over two HTTP samplers of a real server ({@code GET /work}, always 200; {@code GET /flaky},
 * every 4th a 500). JMeter writes a CSV JTL and streams its InfluxDB backend listener into caplab's {@code /write}.
 *
 * <p>What caplab shows for each step (the throughput endpoint behind the run page and the report) is checked against
 * JMeter's own output: requests/s and error ratio against the JTL's rows whose timeStamp lies in the step, by
 * arithmetic here; p50/p95/p99 against the median of the percentiles JMeter's listener sent for its total row in the
 * step's windows (as stored raw). The JTL is also ingested with {@code caplab ingest --format jmeter} into its own
 * run and checked row by row, and the listener's rows are checked against the JTL: per-transaction counts, failures,
 * summed, smallest and largest elapsed times.
 */
@MeasuresHost
class JmeterIT {

    private static final String RUN = "jmeter-it";
    private static final String JTL_RUN = "jmeter-it-jtl";
    private static final int[] LEVELS = {2, 6};
    private static final int SECONDS = 4;
    private static final String WORK = "GET /work";
    private static final String FLAKY = "GET /flaky";
    private static final String LISTENER = "labels['aggregation'] = 'jmeter-backend-listener'";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    /** A declared step: its load level, whole-second bounds and the JTL rows JMeter wrote in it. */
    private record Step(int threads, Instant start, Instant end, JtlFile jtl) {

        double seconds() {
            return Duration.between(start, end).toSeconds();
        }
    }

    @Test
    void eachStepsRateErrorsAndPercentilesAreJmetersOwn() throws Exception {
        Path home = RealTools.jmeterHome(RepoRoot.find());
        // NewDriver looks for lib/junit (JUnit sampler plans) and prints a stack trace when it is absent
        Files.createDirectories(home.resolve("lib/junit"));
        long began = System.nanoTime();
        try (EmbeddedStack stack = EmbeddedStack.start(new UpSettings(dir.resolve("data"), "127.0.0.1", 0, 0, 0,
                false, null, List.of()), new PrintStream(new ByteArrayOutputStream()));
             SutProcess sut = SutProcess.start(8, 1, 20)) {
            System.out.printf(Locale.ROOT, "JmeterIT stack up after %d ms%n", (System.nanoTime() - began) / 1_000_000);
            URI base = URI.create("http://127.0.0.1:" + stack.httpPort());
            StackSql sql = new StackSql(stack);
            Instant runStart = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            post(base, "/api/v1/runs", String.format(Locale.ROOT, "{\"runId\":\"%s\",\"sut\":\"pooled-server\","
                    + "\"tool\":\"jmeter\",\"loadExpression\":\"threads\",\"startedAt\":\"%s\"}", RUN, runStart), 201);
            List<Step> steps = new ArrayList<>();
            List<JtlFile.Row> allRows = new ArrayList<>();
            Instant next = runStart;
            for (int i = 0; i < LEVELS.length; i++) {
                Instant start = later(next, Instant.now().truncatedTo(ChronoUnit.SECONDS));
                post(base, "/api/v1/runs/" + RUN + "/steps", String.format(Locale.ROOT,
                        "{\"index\":%d,\"load\":{\"threads\":%d},\"warmupSeconds\":0,\"startedAt\":\"%s\"}", i,
                        LEVELS[i], start), 202);
                JtlFile jtl = runJmeter(home, sut, stack, LEVELS[i], dir.resolve("level" + i));
                // the listener's last window is sent as JMeter stops: the step ends once all of it arrived
                sql.await("SELECT coalesce(sum(summary_count), 0) AS n FROM samples WHERE run_id = '" + RUN
                        + "' AND " + LISTENER + " AND metric = 'http.req.duration.ms' "
                        + "AND labels['transaction'] = 'all' AND ts >= fromUnixTimestamp64Micro("
                        + start.toEpochMilli() * 1000 + ")",
                        r -> ((Number) r.getFirst().get("n")).longValue() >= jtl.count(), Duration.ofSeconds(60));
                Instant end = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
                post(base, "/api/v1/events", String.format(Locale.ROOT, "{\"runId\":\"%s\",\"events\":[{\"type\":"
                        + "\"step_ended\",\"index\":%d,\"endedAt\":\"%s\"}]}", RUN, i, end), 202);
                steps.add(new Step(LEVELS[i], start, end, jtl));
                allRows.addAll(jtl.rows());
                next = end;
            }
            post(base, "/api/v1/runs/" + RUN + "/end", "{\"endedAt\":\"" + next + "\",\"allSamplesSent\":true}", 202);
            JtlFile all = new JtlFile(allRows);
            assertThat(all.where(r -> r.label().equals(FLAKY)).failures()).as("the 500s JMeter saw").isPositive();
            assertThat(all.where(r -> r.label().equals(WORK)).failures()).isZero();

            System.out.printf(Locale.ROOT, "JmeterIT both levels run after %d ms%n",
                    (System.nanoTime() - began) / 1_000_000);
            JsonNode throughput = awaitThroughput(base, steps.size());
            System.out.printf(Locale.ROOT, "JmeterIT steps aggregated after %d ms%n",
                    (System.nanoTime() - began) / 1_000_000);
            for (int i = 0; i < steps.size(); i++) {
                Step step = steps.get(i);
                JtlFile in = new JtlFile(allRows).where(r -> !Instant.ofEpochMilli(r.timeStampMillis())
                        .isBefore(step.start()) && Instant.ofEpochMilli(r.timeStampMillis()).isBefore(step.end()));
                assertThat(in.count()).as("step %d: every JTL row of its level lies in it", i)
                        .isEqualTo(step.jtl().count());
                double expectedRate = in.count() / step.seconds();
                double expectedErrors = in.failures() / (double) in.count();
                JsonNode shown = throughput.get("steps").get(i);
                assertThat(shown.get("requestsPerSecond").asDouble()).as("step %d requests/s vs the JTL", i)
                        .isCloseTo(expectedRate, within(expectedRate * 0.01));
                assertThat(shown.get("errorRatio").asDouble()).as("step %d error ratio vs the JTL", i)
                        .isCloseTo(expectedErrors, within(1e-9));

                Map<String, Double> medians = listenerMedians(sql, step);
                assertThat(shown.get("latencyP50Ms").asDouble()).as("step %d p50", i).isEqualTo(medians.get("0.5"));
                assertThat(shown.get("latencyP95Ms").asDouble()).as("step %d p95", i).isEqualTo(medians.get("0.95"));
                assertThat(shown.get("latencyP99Ms").asDouble()).as("step %d p99", i).isEqualTo(medians.get("0.99"));
                assertThat(shown.get("latencyCombination").asString())
                        .isEqualTo("median of the tool's " + medians.get("windows").intValue() + " window percentiles");
                System.out.printf(Locale.ROOT, "JmeterIT step %d (%d threads, %s..%s): caplab %.3f req/s, errors "
                        + "%.5f, p50/p95/p99 %s/%s/%s ms; JTL %d rows / %.0f s = %.3f req/s, %d failed = %.5f; "
                        + "listener windows %d, median p50/p95/p99 %s/%s/%s ms%n", i, step.threads(), step.start(),
                        step.end(), shown.get("requestsPerSecond").asDouble(), shown.get("errorRatio").asDouble(),
                        shown.get("latencyP50Ms"), shown.get("latencyP95Ms"), shown.get("latencyP99Ms"), in.count(),
                        step.seconds(), expectedRate, in.failures(), expectedErrors, medians.get("windows").intValue(),
                        medians.get("0.5"), medians.get("0.95"), medians.get("0.99"));
            }

            listenerRowsAgreeWithTheJtl(sql, all);
            timelineCountsTheJtlsRequests(base, all);
            jtlIngestAgreesWithTheJtl(stack, sql, all);

            // the listener's test start and end markers are the run's annotations, one pair per JMeter run
            assertThat(sql.await("SELECT text FROM annotations FINAL WHERE run_id = '" + RUN + "' ORDER BY at",
                    r -> r.size() >= 2 * LEVELS.length, Duration.ofSeconds(30))).extracting(r -> r.get("text"))
                    .containsExactly("caplab JmeterIT started", "caplab JmeterIT ended", "caplab JmeterIT started",
                            "caplab JmeterIT ended");
        }
    }

    /** One non-GUI JMeter run of the plan at {@code threads} threads; its JTL. */
    private static JtlFile runJmeter(Path home, SutProcess sut, EmbeddedStack stack, int threads, Path work)
            throws Exception {
        Files.createDirectories(work);
        String plan = new String(JmeterIT.class.getResourceAsStream("/tools/jmeter_plan.jmx").readAllBytes(),
                StandardCharsets.UTF_8)
                .replace("@THREADS@", Integer.toString(threads)).replace("@SECONDS@", Integer.toString(SECONDS))
                .replace("@SUT_PORT@", Integer.toString(sut.port()))
                .replace("@INFLUXDB_URL@", "http://127.0.0.1:" + stack.httpPort() + "/write?db=" + RUN);
        Files.writeString(work.resolve("plan.jmx"), plan);
        Path jtl = work.resolve("out.jtl");
        Path log = work.resolve("jmeter.log");
        Path console = work.resolve("jmeter.out");
        Process jmeter = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // C1 only and a serial collector: JMeter starts in about half the time on a busy 2-core machine
                "-Djava.awt.headless=true", "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar",
                home.resolve("bin/ApacheJMeter.jar").toString(),
                "-n", "-t", "plan.jmx", "-l", jtl.toString(), "-j", log.toString(),
                // the listener's send interval (5 s by default): the run lasts seconds
                "-Jbackend_influxdb.send_interval=1",
                // every figure of a row over its own interval (JMeter's default: mean, min, max and percentiles
                // over the last 100 samples, across intervals; only the counts per interval)
                "-Jbackend_metrics_window_mode=timed",
                // its 3 s answer timeout drops a window when a shared CI machine stalls caplab's first writes
                "-Jbackend_influxdb.socket_timeout=30000", "-Jbackend_influxdb.connection_request_timeout=30000")
                .directory(work.toFile()).redirectErrorStream(true).redirectOutput(console.toFile()).start();
        boolean finished = jmeter.waitFor(90, TimeUnit.SECONDS);
        if (!finished) {
            jmeter.destroyForcibly();
        }
        String output = Files.readString(console) + "\n" + (Files.exists(log) ? Files.readString(log) : "");
        assertThat(finished).as(output).isTrue();
        assertThat(jmeter.exitValue()).as(output).isZero();
        // HttpMetricsSender logs every write caplab refused
        assertThat(output).as(output).doesNotContain("Error writing metrics");
        JtlFile rows = JtlFile.read(jtl);
        assertThat(rows.count()).as("JTL rows at %d threads", threads).isPositive();
        return rows;
    }

    /**
     * The median over the step's windows of each percentile JMeter's listener sent for its total row
     * ({@code transaction=all}), as stored raw; "windows" is how many.
     */
    private static Map<String, Double> listenerMedians(StackSql sql, Step step) throws Exception {
        List<Map<String, Object>> rows = sql.rows("SELECT summary_quantiles['0.5'] AS p50, "
                + "summary_quantiles['0.95'] AS p95, summary_quantiles['0.99'] AS p99 FROM samples WHERE run_id = '"
                + RUN + "' AND " + LISTENER + " AND metric = 'http.req.duration.ms' AND kind = 'SUMMARY' "
                + "AND labels['transaction'] = 'all' AND ts >= fromUnixTimestamp64Micro("
                + step.start().toEpochMilli() * 1000 + ") AND ts < fromUnixTimestamp64Micro("
                + step.end().toEpochMilli() * 1000 + ")");
        assertThat(rows).as("listener windows in the step").isNotEmpty();
        return Map.of("0.5", median(rows, "p50"), "0.95", median(rows, "p95"), "0.99", median(rows, "p99"),
                "windows", (double) rows.size());
    }

    private static double median(List<Map<String, Object>> rows, String column) {
        double[] v = rows.stream().mapToDouble(r -> ((Number) r.get(column)).doubleValue()).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /**
     * The listener's rows: per-interval summaries of the same requests, nothing per request. Per transaction,
     * weighted by their counts the interval means add up to the JTL's total time; failures are the JTL's.
     */
    private static void listenerRowsAgreeWithTheJtl(StackSql sql, JtlFile all) throws Exception {
        String listener = "FROM samples WHERE run_id = '" + RUN + "' AND " + LISTENER + " AND ";
        for (String label : List.of(WORK, FLAKY)) {
            JtlFile rows = all.where(r -> r.label().equals(label));
            String transaction = listener + "metric = 'http.req.duration.ms' AND labels['transaction'] = '" + label
                    + "'";
            Map<String, Object> figures = sql.rows("SELECT sum(summary_count) AS n, "
                    + "sum(summary_mean * summary_count) AS total, min(summary_min) AS lo, max(summary_max) AS hi "
                    + transaction + " AND labels['statut'] = 'all' AND kind = 'SUMMARY'").getFirst();
            assertThat(((Number) figures.get("n")).longValue()).as(label).isEqualTo(rows.count());
            assertThat(((Number) figures.get("total")).doubleValue()).as(label)
                    .isCloseTo(rows.elapsedSumMillis(), within(1e-6 * rows.elapsedSumMillis()));
            assertThat(((Number) figures.get("lo")).doubleValue()).as(label).isEqualTo(rows.elapsedMinMillis());
            assertThat(((Number) figures.get("hi")).doubleValue()).as(label).isEqualTo(rows.elapsedMaxMillis());
            assertThat(sql.count("SELECT coalesce(sum(summary_count), 0) " + transaction
                    + " AND labels['statut'] = 'ko'"))
                    .as(label + " ko").isEqualTo(rows.failures());
        }
        assertThat(sql.count("SELECT sum(summary_count) " + listener + "metric = 'http.req.duration.ms' "
                + "AND labels['transaction'] = 'all' AND labels['statut'] = 'all'")).isEqualTo(all.count());
        assertThat(sql.count("SELECT sum(value) " + listener + "metric = 'http.req.failed.window.count' "
                + "AND labels['transaction'] = 'all'")).as("the total row's countError").isEqualTo(all.failures());
        assertThat(sql.count("SELECT sum(value) " + listener + "metric = 'http.req.failed.window.count' "
                + "AND labels['responseCode'] = '500'")).as("the error rows").isEqualTo(all.failures());
        // nothing of the listener is stored as a gauge per field (jmeter.count, jmeter.pct90.0 ...)
        assertThat(sql.count("SELECT count() FROM samples WHERE run_id = '" + RUN + "' AND (metric IN "
                + "('jmeter.count', 'jmeter.countError', 'jmeter.avg', 'jmeter.min', 'jmeter.max', 'jmeter.hit') "
                + "OR metric LIKE 'jmeter.pct%')")).isZero();
    }

    /** {@code caplab ingest --format jmeter} of the same JTLs: one sample per row, every figure as JMeter wrote it. */
    private void jtlIngestAgreesWithTheJtl(EmbeddedStack stack, StackSql sql, JtlFile all) throws Exception {
        Path jtl = dir.resolve("all.jtl");
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < LEVELS.length; i++) {
            List<String> level = Files.readAllLines(dir.resolve("level" + i).resolve("out.jtl"));
            lines.addAll(i == 0 ? level : level.subList(1, level.size()));
        }
        Files.write(jtl, lines);
        int exit = CaplabCli.commandLine().execute("ingest", "--format", "jmeter", "--run", JTL_RUN,
                "--file", jtl.toString(), "--bootstrap", stack.bootstrapServers());
        assertThat(exit).isZero();
        String jtlSamples = "FROM samples WHERE run_id = '" + JTL_RUN + "' AND kind = 'GAUGE' AND metric = ";
        sql.await("SELECT count() AS n " + jtlSamples + "'http.req.duration.ms'",
                r -> ((Number) r.getFirst().get("n")).longValue() >= all.count(), Duration.ofSeconds(60));
        Map<String, Object> figures = sql.rows("SELECT count() AS n, sum(value) AS total, min(value) AS lo, "
                + "max(value) AS hi, countIf(labels['success'] = 'false') AS failed, countIf(labels['name'] = '"
                + WORK + "') AS work " + jtlSamples + "'http.req.duration.ms'").getFirst();
        assertThat(((Number) figures.get("n")).longValue()).isEqualTo(all.count());
        assertThat(((Number) figures.get("failed")).longValue()).isEqualTo(all.failures());
        assertThat(((Number) figures.get("work")).longValue())
                .isEqualTo(all.where(r -> r.label().equals(WORK)).count());
        assertThat(((Number) figures.get("total")).doubleValue()).isEqualTo(all.elapsedSumMillis());
        assertThat(((Number) figures.get("lo")).doubleValue()).isEqualTo(all.elapsedMinMillis());
        assertThat(((Number) figures.get("hi")).doubleValue()).isEqualTo(all.elapsedMaxMillis());
        assertThat(sql.count("SELECT count() " + jtlSamples + "'http.req.latency.ms'")).isEqualTo(all.count());
        assertThat(sql.count("SELECT count() " + jtlSamples + "'http.req.connect.ms'")).isEqualTo(all.count());
    }

    /** The run's throughput once every step has a request rate and percentiles. */
    /**
     * The run page's requests/s, p95 and errors over time come from the listener's windows: per 1 s bucket, the
     * requests and failures add up to the JTL's, and every bucket with requests has the tool's p95.
     */
    private static void timelineCountsTheJtlsRequests(URI base, JtlFile all) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(base.resolve("/api/v1/runs/" + RUN
                + "/timeline?bucketSeconds=1")).header("Accept", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode timeline = JSON.readTree(r.body());
        assertThat(timeline.get("requestSource").asString()).isEqualTo("tool window counts");
        double requests = 0;
        double failures = 0;
        int withRequests = 0;
        for (JsonNode p : timeline.get("points")) {
            if (!p.get("requestsPerSecond").isNull()) {
                requests += p.get("requestsPerSecond").asDouble();
                failures += p.get("errorsPerSecond").asDouble();
                withRequests++;
                assertThat(p.get("latencyP95Ms").isNull()).as("p95 of the bucket at %s", p.get("at")).isFalse();
            }
        }
        assertThat(withRequests).isPositive();
        assertThat(requests).as("requests over the timeline vs the JTL's rows").isCloseTo(all.count(), within(1e-6));
        assertThat(failures).as("failures over the timeline vs the JTL's").isCloseTo(all.failures(), within(1e-6));
    }

    private static JsonNode awaitThroughput(URI base, int steps) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(base.resolve("/api/v1/runs/" + RUN
                    + "/throughput")).header("Accept", "application/json").build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200) {
                last = JSON.readTree(r.body());
                JsonNode s = last.get("steps");
                if (s != null && s.size() == steps && allHave(s, "requestsPerSecond", "errorRatio", "latencyP95Ms")) {
                    return last;
                }
            }
            Thread.sleep(250);
        }
        throw new AssertionError("the throughput of " + RUN + " never had " + steps + " complete steps: " + last);
    }

    private static boolean allHave(JsonNode steps, String... fields) {
        for (JsonNode s : steps) {
            if (Arrays.stream(fields).anyMatch(f -> s.get(f) == null || s.get(f).isNull())) {
                return false;
            }
        }
        return true;
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static void post(URI base, String path, String json, int expectedStatus) throws Exception {
        WriteClients.post(HTTP, base.resolve(path), json.getBytes(StandardCharsets.UTF_8), "application/json", null,
                expectedStatus, path);
    }
}
