package dev.caplab.app.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.app.MeasuresHost;
import dev.caplab.app.cli.IngestCommand;
import dev.caplab.app.up.EmbeddedStack;
import dev.caplab.app.up.UpSettings;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.TopologySettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Debian's Locust 2.12, headless with {@code --csv --csv-full-history}, steps three user levels against a local
 * server with four endpoints (one failed by the user, one answered 500 by the server); {@code caplab ingest --format
 * locust} reads its CSV files and
 * the run's steps are inferred from Locust's user count. Per step, what the throughput endpoint (and so the run page
 * and the report) shows is checked against Locust's own history, the {@code Aggregated} rows:
 * <ul>
 *   <li>requests/s = the increase of Locust's {@code Total Request Count} over the step's steady rows divided by the
 *       seconds between them, within 1 % (Locust's per-endpoint rows are the same requests again: counted with the
 *       total they doubled it);</li>
 *   <li>the error ratio = the increase of {@code Total Failure Count} over that of {@code Total Request Count};</li>
 *   <li>p50/p95/p99 = per column, the median of Locust's own window percentiles over those rows (with
 *       {@code --csv-full-history} each row's percentiles cover Locust's last ~10 s: {@code
 *       get_current_response_time_percentile}); rows where Locust's window was still empty (all 0) carry none;</li>
 *   <li>the mean latency = (m·n − m₀·n₀) / (n − n₀) from the {@code Total Average Response Time} m and {@code Total
 *       Request Count} n of those first and last rows: the requests' total milliseconds over their number.</li>
 * </ul>
 * The same stack then takes a history Locust wrote without {@code --csv-full-history} (ingest's test resource
 * {@code locust/stepped_cumulative_stats_history.csv}, a real Locust 2.12.1 run; its percentiles are since start):
 * per step the same mean, no percentiles, and the one sentence that says why, on the API, the page's run detail and
 * the report.
 */
@MeasuresHost
class LocustCsvCountIT {

    private static final String RUN = "locust-csv-count-it";
    private static final String SINCE_START_RUN = "locust-csv-since-start-it";
    private static final String SINCE_START_HISTORY = "/locust/stepped_cumulative_stats_history.csv";
    private static final int[] SINCE_START_LEVELS = {2, 5, 10};
    private static final String SINCE_START_SENTENCE = "Locust wrote percentiles since start only; run it with "
            + "--csv-full-history for per-step p50/p95/p99.";
    private static final int[] LEVELS = {2, 5, 10};
    /**
     * Longer than streams' shortest inferred step (20 s): each level is a step. The last level is held
     * {@value #LAST_STEP_EXTRA_SECONDS} s longer: Locust's history stops a few seconds before its shape does.
     */
    private static final int STEP_SECONDS = 22;
    private static final int LAST_STEP_EXTRA_SECONDS = 8;
    private static final double RATE = 5;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    @Test
    void perStepRateErrorsAndPercentilesAreLocustsOwn() throws Exception {
        Path locust = RealTools.locust();
        Path locustfile = dir.resolve("locustfile.py");
        Files.copy(LocustCsvCountIT.class.getResourceAsStream("/tools/endpoints_locustfile.py"), locustfile);
        try (SutProcess sut = SutProcess.start(8, 0, 20);
             EmbeddedStack stack = EmbeddedStack.start(new UpSettings(dir.resolve("data"), "127.0.0.1", 0, 0, 0,
                     false, null, List.of()), new PrintStream(new ByteArrayOutputStream()))) {
            Path prefix = dir.resolve("locust");
            Path log = dir.resolve("locust.log");
            ProcessBuilder command = new ProcessBuilder(locust.toString(), "-f", locustfile.toString(), "--headless",
                    "--host", sut.baseUrl(), "--csv", prefix.toString(), "--csv-full-history")
                    .redirectErrorStream(true).redirectOutput(log.toFile());
            command.environment().put("CAPLAB_IT_LEVELS",
                    Arrays.stream(LEVELS).mapToObj(Integer::toString).collect(Collectors.joining(",")));
            command.environment().put("CAPLAB_IT_STEP_SECONDS", Integer.toString(STEP_SECONDS));
            command.environment().put("CAPLAB_IT_RATE", Double.toString(RATE));
            command.environment().put("CAPLAB_IT_LAST_STEP_EXTRA_SECONDS", Integer.toString(LAST_STEP_EXTRA_SECONDS));
            Process run = command.start();
            boolean finished = run.waitFor(LEVELS.length * STEP_SECONDS + LAST_STEP_EXTRA_SECONDS + 30, TimeUnit.SECONDS);
            if (!finished) {
                run.destroyForcibly();
            }
            assertThat(finished).as("locust finished:\n" + Files.readString(log)).isTrue();

            List<LocustStats.AggregatedRow> history = LocustStats.aggregatedRows(
                    dir.resolve("locust_stats_history.csv"));
            int exit = new CommandLine(new IngestCommand()).execute("--format", "locust", "--run", RUN,
                    "--file", prefix.toString(), "--bootstrap", stack.bootstrapServers());
            assertThat(exit).as("caplab ingest exit code").isZero();
            // every sample is in: the last step closes now rather than after the grace
            Instant end = Instant.ofEpochSecond(history.getLast().epochSecond() + 1);
            HttpResponse<String> ended = post(stack, "/api/v1/runs/" + RUN + "/end",
                    "{\"allSamplesSent\": true, \"endedAt\": \"" + end + "\"}");
            assertThat(ended.statusCode()).as(ended.body()).isEqualTo(202);

            StackSql sql = new StackSql(stack);
            List<Map<String, Object>> steps = stepBounds(sql, RUN, LEVELS.length);
            long warmupMicros = TopologySettings.defaults().inferredWarmup().toNanos() / 1000;
            JsonNode throughput = awaitThroughput(stack, RUN, LEVELS.length, "latencyP95Ms");
            String context = "steps " + steps + "\nthroughput " + throughput;

            StringBuilder table = new StringBuilder(String.format(Locale.ROOT,
                    "%-5s %-5s %-14s %-14s %-10s %-10s %-11s %-11s %-9s %-9s%n", "step", "users", "caplab req/s",
                    "Locust req/s", "caplab p95", "Locust p95", "caplab mean", "Locust mean", "caplab err",
                    "Locust err"));
            for (int i = 0; i < LEVELS.length; i++) {
                Map<String, Object> step = steps.get(i);
                assertThat(((Number) step.get("users")).intValue()).as(context).isEqualTo(LEVELS[i]);
                long from = micros(step, "from_us") + warmupMicros;
                long to = micros(step, "to_us");
                List<LocustStats.AggregatedRow> steady = history.stream()
                        .filter(r -> r.epochSecond() * 1_000_000L >= from && r.epochSecond() * 1_000_000L < to)
                        .toList();
                assertThat(steady.size()).as("Locust rows in step %d's steady part; %s", i, context)
                        .isGreaterThanOrEqualTo(5);
                // a history row reports what Locust counted since the row before it: the steady part's count
                // runs from the last warm-up row to its own last row
                LocustStats.AggregatedRow first = history.stream()
                        .filter(r -> r.epochSecond() * 1_000_000L < from).reduce((a, b) -> b)
                        .orElse(steady.getFirst());
                LocustStats.AggregatedRow last = steady.getLast();
                double locustRate = (last.totalRequests() - first.totalRequests())
                        / (double) (last.epochSecond() - first.epochSecond());
                double locustErrors = (last.totalFailures() - first.totalFailures())
                        / (double) (last.totalRequests() - first.totalRequests());
                List<LocustStats.AggregatedRow> windows = steady.stream()
                        .filter(LocustStats.AggregatedRow::windowHasData).toList();

                JsonNode shown = throughput.path("steps").get(i);
                String what = "step " + i + " (" + LEVELS[i] + " users): " + shown;
                assertThat(shown.path("requestsPerSecond").asDouble()).as(what)
                        .isCloseTo(locustRate, within(0.01 * locustRate));
                assertThat(shown.path("errorRatio").asDouble()).as(what).isCloseTo(locustErrors, within(1e-9));
                assertThat(shown.path("latencyCombination").asString()).as(what)
                        .isEqualTo("median of the tool's " + windows.size() + " window percentiles");
                for (String[] q : new String[][] {{"latencyP50Ms", "50%"}, {"latencyP95Ms", "95%"},
                        {"latencyP99Ms", "99%"}}) {
                    double expected = median(windows.stream().mapToDouble(r -> r.windowPercentiles().get(q[1]))
                            .toArray());
                    assertThat(shown.path(q[0]).asDouble()).as(q[0] + " " + what).isEqualTo(expected);
                }
                double locustMean = meanIsLocusts(shown, first, last, what);
                table.append(String.format(Locale.ROOT,
                        "%-5d %-5d %-14.3f %-14.3f %-10.1f %-10.1f %-11.4f %-11.4f %-9.4f %-9.4f%n",
                        i, LEVELS[i], shown.path("requestsPerSecond").asDouble(), locustRate,
                        shown.path("latencyP95Ms").asDouble(),
                        median(windows.stream().mapToDouble(r -> r.windowPercentiles().get("95%")).toArray()),
                        shown.path("latencyMeanMs").asDouble(), locustMean,
                        shown.path("errorRatio").asDouble(), locustErrors));
            }
            System.out.println("LocustCsvCountIT per step (caplab vs Locust's Aggregated history):\n" + table);
            endpointsAreLocusts(stack, steps, warmupMicros);
            sinceStartPercentilesGiveTheMeanAndSaySo(stack, sql, warmupMicros);
        }
    }

    /**
     * The step's mean latency is Locust's own: the requests' total milliseconds between the last row before the
     * steady part and the step's last row over their number, labelled as coming from Locust's totals.
     */
    private static double meanIsLocusts(JsonNode shown, LocustStats.AggregatedRow first,
            LocustStats.AggregatedRow last, String what) {
        double expected = last.meanSinceMs(first);
        assertThat(shown.path("latencyMeanMs").asDouble()).as("mean " + what)
                .isCloseTo(expected, within(1e-9 * expected));
        assertThat(shown.path("latencyMeanFrom").asString()).as(what).isEqualTo("mean of Locust's own totals over "
                + (last.totalRequests() - first.totalRequests()) + " requests");
        return expected;
    }

    /**
     * A real Locust history written without {@code --csv-full-history}: per step its mean latency as Locust's totals
     * give it, no percentile, and the sentence saying why on the throughput view, the run detail (the page's
     * warnings) and the report.
     */
    private void sinceStartPercentilesGiveTheMeanAndSaySo(EmbeddedStack stack, StackSql sql, long warmupMicros)
            throws Exception {
        Path file = dir.resolve("since-start_stats_history.csv");
        try (var in = LocustCsvCountIT.class.getResourceAsStream(SINCE_START_HISTORY)) {
            Files.copy(in, file);
        }
        List<LocustStats.AggregatedRow> history = LocustStats.aggregatedRows(file);
        int exit = new CommandLine(new IngestCommand()).execute("--format", "locust", "--run", SINCE_START_RUN,
                "--file", file.toString(), "--bootstrap", stack.bootstrapServers());
        assertThat(exit).as("caplab ingest exit code").isZero();
        HttpResponse<String> ended = post(stack, "/api/v1/runs/" + SINCE_START_RUN + "/end",
                "{\"allSamplesSent\": true, \"endedAt\": \""
                        + Instant.ofEpochSecond(history.getLast().epochSecond() + 1) + "\"}");
        assertThat(ended.statusCode()).as(ended.body()).isEqualTo(202);
        List<Map<String, Object>> steps = stepBounds(sql, SINCE_START_RUN, SINCE_START_LEVELS.length);
        JsonNode throughput = awaitThroughput(stack, SINCE_START_RUN, SINCE_START_LEVELS.length, "latencyMeanMs");
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "%-5s %-5s %-11s %-11s %-9s%n", "step",
                "users", "caplab mean", "Locust mean", "requests"));
        for (int i = 0; i < SINCE_START_LEVELS.length; i++) {
            assertThat(((Number) steps.get(i).get("users")).intValue()).isEqualTo(SINCE_START_LEVELS[i]);
            long from = micros(steps.get(i), "from_us") + warmupMicros;
            long to = micros(steps.get(i), "to_us");
            LocustStats.AggregatedRow first = history.stream().filter(r -> r.epochSecond() * 1_000_000L < from)
                    .reduce((a, b) -> b).orElseThrow();
            LocustStats.AggregatedRow last = history.stream().filter(r -> r.epochSecond() * 1_000_000L < to)
                    .reduce((a, b) -> b).orElseThrow();
            JsonNode shown = throughput.path("steps").get(i);
            String what = "since-start step " + i + " (" + SINCE_START_LEVELS[i] + " users): " + shown;
            double expected = meanIsLocusts(shown, first, last, what);
            for (String q : List.of("latencyP50Ms", "latencyP95Ms", "latencyP99Ms", "latencyCombination")) {
                assertThat(shown.path(q).isNull()).as(q + " " + what).isTrue();
            }
            table.append(String.format(Locale.ROOT, "%-5d %-5d %-11.4f %-11.4f %-9d%n", i, SINCE_START_LEVELS[i],
                    shown.path("latencyMeanMs").asDouble(), expected, last.totalRequests() - first.totalRequests()));
        }
        assertThat(throughput.path("warnings").toString()).contains(SINCE_START_SENTENCE);
        JsonNode detail = JSON.readTree(get(stack, "/api/v1/runs/" + SINCE_START_RUN).body());
        assertThat(detail.path("warnings").toString()).as("the page's run warnings").contains(SINCE_START_SENTENCE);
        String report = get(stack, "/api/v1/runs/" + SINCE_START_RUN + "/report").body();
        assertThat(report).contains(SINCE_START_SENTENCE).contains("mean of Locust&#39;s own totals over");
        System.out.println("LocustCsvCountIT without --csv-full-history (caplab vs Locust's totals):\n" + table);
    }

    /** The inferred steps' bounds: those of their aggregates (the steady part starts after the inferred warm-up). */
    private static List<Map<String, Object>> stepBounds(StackSql sql, String run, int levels) throws Exception {
        return sql.await("SELECT step_index, arrayElement(mapValues(load), 1) AS users,"
                + " toUnixTimestamp64Micro(window_start) AS from_us, toUnixTimestamp64Micro(window_end) AS to_us "
                + "FROM step_aggregates FINAL WHERE run_id = '" + run + "' AND step_index >= 0 AND source = '"
                + MetricNames.THROUGHPUT_SOURCE + "' AND metric = '" + MetricNames.THROUGHPUT_REQUESTS_PER_S + "' "
                + "ORDER BY step_index", rows -> rows.size() == levels, Duration.ofSeconds(90));
    }

    private static HttpResponse<String> get(EmbeddedStack stack, String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                "http://127.0.0.1:" + stack.httpPort() + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return response;
    }

    /**
     * The per-endpoint and error tables against Locust's own files: over the whole run each endpoint's requests,
     * failures, requests/s and p95 are its {@code _stats.csv} row's, and each {@code _failures.csv} row (method,
     * name, error) is an error row with its occurrences; per step each endpoint's rate, failures and p95 come from
     * its own {@code _stats_history.csv} rows over the step's steady part, as the total row's do.
     */
    private void endpointsAreLocusts(EmbeddedStack stack, List<Map<String, Object>> steps, long warmupMicros)
            throws Exception {
        List<Map<String, String>> stats = LocustStats.rows(dir.resolve("locust_stats.csv")).stream()
                .filter(r -> !r.get("Type").isEmpty()).toList();
        List<Map<String, String>> failures = LocustStats.rows(dir.resolve("locust_failures.csv"));
        List<LocustStats.EndpointHistoryRow> history = LocustStats.endpointHistory(
                dir.resolve("locust_stats_history.csv"));
        assertThat(stats).as("Locust's endpoints").hasSize(4);
        assertThat(failures).as("Locust's failures").hasSizeGreaterThanOrEqualTo(2);
        JsonNode endpoints = awaitEndpoints(stack, stats.size());
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "%-5s %-6s %-13s %-9s %-9s %-10s %-10s "
                + "%-9s %-9s%n", "step", "method", "name", "caplab n", "Locust n", "caplab r/s", "Locust r/s",
                "caplab f", "Locust f"));
        for (Map<String, String> row : stats) {
            JsonNode shown = find(endpoints.path("endpoints"), row.get("Type"), row.get("Name"));
            String what = "run, " + row.get("Type") + " " + row.get("Name") + ": " + shown;
            assertThat(shown.path("requests").asLong()).as(what).isEqualTo(Long.parseLong(row.get("Request Count")));
            assertThat(shown.path("failures").asLong()).as(what).isEqualTo(Long.parseLong(row.get("Failure Count")));
            assertThat(shown.path("requestsPerSecond").asDouble()).as(what)
                    .isCloseTo(Double.parseDouble(row.get("Requests/s")), within(1e-9));
            assertThat(shown.path("p95Ms").asDouble()).as(what).isEqualTo(Double.parseDouble(row.get("95%")));
            table.append(String.format(Locale.ROOT, "%-5s %-6s %-13s %-9d %-9s %-10.3f %-10s %-9d %-9s%n", "run",
                    row.get("Type"), row.get("Name"), shown.path("requests").asLong(), row.get("Request Count"),
                    shown.path("requestsPerSecond").asDouble(), row.get("Requests/s"),
                    shown.path("failures").asLong(), row.get("Failure Count")));
        }
        for (Map<String, String> failure : failures) {
            JsonNode error = null;
            for (JsonNode e : endpoints.path("errors")) {
                if (e.path("method").asString().equals(failure.get("Method"))
                        && e.path("name").asString().equals(failure.get("Name"))
                        && e.path("message").asString().equals(failure.get("Error"))) {
                    error = e;
                }
            }
            assertThat(error).as("error row for " + failure + " in " + endpoints.path("errors")).isNotNull();
            assertThat(error.path("occurrences").asLong()).as(failure.toString())
                    .isEqualTo(Long.parseLong(failure.get("Occurrences")));
        }
        for (int i = 0; i < LEVELS.length; i++) {
            long from = micros(steps.get(i), "from_us") + warmupMicros;
            long to = micros(steps.get(i), "to_us");
            JsonNode step = endpoints.path("steps").get(i);
            for (Map<String, String> row : stats) {
                List<LocustStats.EndpointHistoryRow> steady = history.stream()
                        .filter(r -> r.method().equals(row.get("Type")) && r.name().equals(row.get("Name"))
                                && r.epochSecond() * 1_000_000L >= from && r.epochSecond() * 1_000_000L < to)
                        .toList();
                LocustStats.EndpointHistoryRow first = history.stream()
                        .filter(r -> r.method().equals(row.get("Type")) && r.name().equals(row.get("Name"))
                                && r.epochSecond() * 1_000_000L < from).reduce((a, b) -> b)
                        .orElse(steady.getFirst());
                LocustStats.EndpointHistoryRow last = steady.getLast();
                double rate = (last.totalRequests() - first.totalRequests())
                        / (double) (last.epochSecond() - first.epochSecond());
                long failed = last.totalFailures() - first.totalFailures();
                double p95 = median(steady.stream().filter(LocustStats.EndpointHistoryRow::windowHasData)
                        .mapToDouble(r -> r.windowPercentiles().get("95%")).toArray());
                JsonNode shown = find(step.path("endpoints"), row.get("Type"), row.get("Name"));
                String what = "step " + i + ", " + row.get("Type") + " " + row.get("Name") + ": " + shown;
                assertThat(shown.path("requestsPerSecond").asDouble()).as(what).isCloseTo(rate, within(0.01 * rate));
                assertThat(shown.path("failures").asLong()).as(what).isEqualTo(failed);
                assertThat(shown.path("p95Ms").asDouble()).as(what).isEqualTo(p95);
                table.append(String.format(Locale.ROOT, "%-5d %-6s %-13s %-9d %-9d %-10.3f %-10.3f %-9d %-9d%n", i,
                        row.get("Type"), row.get("Name"), shown.path("requests").asLong(),
                        last.totalRequests() - first.totalRequests(), shown.path("requestsPerSecond").asDouble(),
                        rate, shown.path("failures").asLong(), failed));
            }
        }
        System.out.println("LocustCsvCountIT per endpoint (caplab vs Locust's _stats.csv and history rows):\n"
                + table + "errors " + endpoints.path("errors"));
    }

    private static JsonNode find(JsonNode rows, String method, String name) {
        for (JsonNode r : rows) {
            if (r.path("method").asString().equals(method) && r.path("name").asString().equals(name)) {
                return r;
            }
        }
        throw new AssertionError("no endpoint " + method + " " + name + " in " + rows);
    }

    /** The run's endpoint tables once the whole run and every step show all of Locust's endpoints. */
    private static JsonNode awaitEndpoints(EmbeddedStack stack, int endpoints) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + stack.httpPort() + "/api/v1/runs/" + RUN + "/endpoints")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                JsonNode body = JSON.readTree(response.body());
                boolean ready = body.path("endpoints").size() == endpoints && body.path("errors").size() > 0
                        && body.path("steps").size() == LEVELS.length;
                for (JsonNode s : body.path("steps")) {
                    ready &= s.path("endpoints").size() == endpoints;
                }
                if (ready) {
                    return body;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("endpoints not ready: " + response.statusCode() + " " + response.body());
            }
            Thread.sleep(500);
        }
    }

    /** The run's throughput once every one of its {@code levels} steps has its request rate and {@code latency}. */
    private static JsonNode awaitThroughput(EmbeddedStack stack, String run, int levels, String latency)
            throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + stack.httpPort() + "/api/v1/runs/" + run + "/throughput")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                JsonNode body = JSON.readTree(response.body());
                JsonNode steps = body.path("steps");
                boolean ready = steps.size() == levels;
                for (JsonNode s : steps) {
                    ready &= s.path("requestsPerSecond").isNumber() && s.path(latency).isNumber();
                }
                if (ready) {
                    return body;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("throughput not ready: " + response.statusCode() + " " + response.body());
            }
            Thread.sleep(500);
        }
    }

    private static HttpResponse<String> post(EmbeddedStack stack, String path, String json) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + stack.httpPort() + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The middle value, or the mean of the two middle ones: Locust's windows combined as the API says. */
    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static long micros(Map<String, Object> row, String column) {
        return ((Number) row.get(column)).longValue();
    }
}
