package dev.caplab.app.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.app.MeasuresHost;
import dev.caplab.app.remotewrite.PrometheusProcesses;
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
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The setup an SRE team already runs, all real and live: a CPU-bound HTTP server pinned to one core
 * ({@link PinnedCpuServer}), Debian's Locust driving it in steps with {@code --csv --csv-full-history}, followed by
 * {@code caplab ingest --format locust --follow}, and Debian's Prometheus scraping node_exporter, process-exporter
 * (grouping the server by its script) and itself every second, remote-writing to {@code /api/v1/write?run=}. What the
 * run page and report show per step is checked against truth from outside caplab: Locust's own counters and window
 * percentiles, and the kernel's CPU accounting read by the test from /proc.
 */
@MeasuresHost
class LiveRunIT {

    private static final String RUN = "live-sre";
    private static final int[] LEVELS = {8, 16, 32, 48};
    private static final int STEP_SECONDS = 21;
    private static final double RATE = 2;
    private static final int CPU_MILLIS = 20;
    private static final Duration IDLE_END = Duration.ofSeconds(30);
    private static final String GROUPS = """
            process_names:
              - name: cpu-server
                cmdline:
                  - '%s'
            """.formatted(PinnedCpuServer.SCRIPT.replace(".", "\\."));
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void whatThePageShowsPerStepIsWhatLocustCountedAndTheKernelAccounted() throws Exception {
        Path locust = RealTools.locust();
        Path locustfile = dir.resolve("locustfile.py");
        Files.copy(LiveRunIT.class.getResourceAsStream("/tools/live_locustfile.py"), locustfile);
        Path csv = dir.resolve("locust");
        Path history = dir.resolve("locust_stats_history.csv");
        Path out = Files.createDirectories(Path.of("target", "live-run"));
        try (EmbeddedStack stack = EmbeddedStack.start(new UpSettings(dir.resolve("data"), "127.0.0.1", 0, 0, 0,
                false, null, List.of()).withRunIdleEnd(IDLE_END), new PrintStream(new ByteArrayOutputStream()));
             PinnedCpuServer server = PinnedCpuServer.start(dir, CPU_MILLIS);
             ProcCpuTrace proc = ProcCpuTrace.start(server.pid())) {
            String api = "http://127.0.0.1:" + stack.httpPort();
            StackSql sql = new StackSql(stack);
            long locustEndedMicros;
            String host;
            List<String> prometheusSources;
            try (PrometheusProcesses prometheus = PrometheusProcesses.startMonitoring(
                    Files.createDirectories(dir.resolve("prom")), api + "/api/v1/write?run=" + RUN, GROUPS)) {
                host = prometheus.nodeExporterInstance();
                prometheusSources = List.of(prometheus.processExporterInstance(), prometheus.prometheusInstance());
                // the monitoring runs before the test, as on a real host: the run begins with its first scrape
                sql.await("SELECT count() AS n FROM samples WHERE run_id = '" + RUN + "' AND source = 'cpu-server'",
                        rows -> ((Number) rows.getFirst().get("n")).longValue() > 0, Duration.ofSeconds(30));
                Path log = dir.resolve("locust.log");
                ProcessBuilder command = new ProcessBuilder(locust.toString(), "-f", locustfile.toString(),
                        "--headless", "--host", server.baseUrl(), "--csv", csv.toString(), "--csv-full-history")
                        .redirectErrorStream(true).redirectOutput(log.toFile());
                command.environment().put("CAPLAB_IT_LEVELS",
                        Arrays.stream(LEVELS).mapToObj(Integer::toString).collect(Collectors.joining(",")));
                command.environment().put("CAPLAB_IT_STEP_SECONDS", Integer.toString(STEP_SECONDS));
                command.environment().put("CAPLAB_IT_RATE", Double.toString(RATE));
                Process run = command.start();
                awaitFile(history, run, log);
                Process ingest = startIngest(csv, stack.bootstrapServers(), dir.resolve("ingest.log"));
                boolean finished = run.waitFor(LEVELS.length * STEP_SECONDS + 30, TimeUnit.SECONDS);
                if (!finished) {
                    run.destroyForcibly();
                }
                assertThat(finished).as("locust finished:\n" + Files.readString(log)).isTrue();
                locustEndedMicros = System.currentTimeMillis() * 1000;
                // as a person ends it with Ctrl-C once Locust is done: it reads what is left, then the totals
                ingest.destroy();
                assertThat(ingest.waitFor(60, TimeUnit.SECONDS)).as("caplab ingest stopped").isTrue();
                Files.copy(dir.resolve("ingest.log"), out.resolve("ingest.log"), StandardCopyOption.REPLACE_EXISTING);
                // the monitoring keeps running after the test, as it does on a real host: a few scrapes of idle
                sql.await("SELECT count() AS n FROM samples WHERE run_id = '" + RUN + "' AND source = 'cpu-server' "
                        + "AND toUnixTimestamp64Micro(ts) > " + (locustEndedMicros + 3_000_000), rows ->
                        ((Number) rows.getFirst().get("n")).longValue() > 0, Duration.ofSeconds(30));
            }

            save(out, "samples.txt", sql.rows("SELECT source, metric, count() AS n, min(ts) AS first, max(ts) AS last "
                    + "FROM samples WHERE run_id = '" + RUN + "' GROUP BY source, metric ORDER BY source, metric")
                    .stream().map(Object::toString).collect(Collectors.joining("\n")));
            // the run ends once its input stopped for IDLE_END; its last step closes after the grace
            JsonNode detail = awaitJson(api + "/api/v1/runs/" + RUN, d -> d.path("conclusion").path("runClosed")
                    .asBoolean() && d.path("steps").size() >= LEVELS.length
                    && d.path("conclusion").path("resources").size() > 0, Duration.ofSeconds(120));
            save(out, "detail.json", detail.toPrettyString());
            save(out, "steps.json", get(api + "/api/v1/runs/" + RUN + "/steps"));
            save(out, "aggregates.json", get(api + "/api/v1/runs/" + RUN + "/aggregates"));
            save(out, "throughput.json", get(api + "/api/v1/runs/" + RUN + "/throughput"));
            save(out, "fits.json", get(api + "/api/v1/runs/" + RUN + "/fits"));
            save(out, "report.html", get(api + "/api/v1/runs/" + RUN + "/report"));
            Files.copy(history, out.resolve("locust_stats_history.csv"), StandardCopyOption.REPLACE_EXISTING);

            JsonNode throughput = JSON.readTree(get(api + "/api/v1/runs/" + RUN + "/throughput"));
            JsonNode aggregates = JSON.readTree(get(api + "/api/v1/runs/" + RUN + "/aggregates?metric=cpu.cores"));
            List<LocustStats.HistoryRow> counts = LocustStats.history(history);
            SortedMap<Long, Double> p95 = LocustStats.aggregatedColumn(history, "95%");
            List<StepFigures> figures = new java.util.ArrayList<>();
            for (JsonNode step : detail.path("steps")) {
                int i = step.path("stepIndex").asInt();
                JsonNode srv = aggregate(aggregates, i, "cpu-server");
                JsonNode hostCpu = aggregate(aggregates, i, host);
                long warmup = step.path("warmupMillis").asLong() > 0 ? step.path("warmupMillis").asLong() * 1000
                        : dev.caplab.streams.TopologySettings.defaults().inferredWarmup().toNanos() / 1000;
                long from = step.path("startedAt").isNull() ? micros(srv.path("windowStart")) + warmup
                        : micros(step.path("startedAt")) + step.path("warmupMillis").asLong() * 1000;
                long to = step.path("endedAt").isNull() ? micros(srv.path("windowEnd")) : micros(step.path("endedAt"));
                JsonNode t = stepOf(throughput.path("steps"), i);
                figures.add(new StepFigures(i, step.path("x").asDouble(), from, to,
                        t.path("requestsPerSecond").asDouble(Double.NaN), locustRate(counts, from, to),
                        t.path("latencyP95Ms").isNumber() ? t.path("latencyP95Ms").asDouble() : Double.NaN,
                        p95.subMap(from / 1_000_000, to / 1_000_000),
                        srv.path("sustained").asDouble(Double.NaN), proc.processCores(from, to),
                        hostCpu.path("sustained").asDouble(Double.NaN), hostCpu.path("mean").asDouble(Double.NaN),
                        proc.hostCores(from, to), proc.hostCoresMedianPerSecond(from, to),
                        step.path("passed").isBoolean() ? step.path("passed").asString() : "not judged",
                        step.path("bottleneck").asString("-"), t.path("latencyCombination").asString("-")));
            }
            StringBuilder table = new StringBuilder(StepFigures.HEADER);
            figures.forEach(f -> table.append(f.line()));
            JsonNode conclusion = detail.path("conclusion");
            table.append("conclusion: bottleneck ").append(conclusion.path("bottleneck")).append(", maxStableX ")
                    .append(conclusion.path("maxStableX")).append(", stepsJudged ").append(conclusion.path("stepsJudged"))
                    .append(", warnings ").append(detail.path("warnings")).append('\n');
            for (JsonNode r : conclusion.path("resources")) {
                if (r.path("metric").asString().equals("cpu.cores")) {
                    table.append("  estimate ").append(r.path("source").asString()).append(" ceiling ")
                            .append(r.path("ceiling")).append(" safe ").append(r.path("safeCapacityX"))
                            .append(" knee ").append(r.path("kneeX")).append('\n');
                }
            }
            for (JsonNode f : JSON.readTree(get(api + "/api/v1/runs/" + RUN + "/fits"))) {
                table.append("  fit ").append(f.path("metric").asString()).append('@').append(f.path("source").asString())
                        .append(' ').append(f.path("model").asString()).append(" knee ").append(f.path("kneeX"))
                        .append(" [").append(f.path("kneeLower95")).append(", ").append(f.path("kneeUpper95"))
                        .append("] p ").append(f.path("breakpointPValue")).append(" cliff ").append(f.path("cliff"))
                        .append(" ceiling ").append(f.path("capacity")).append(" bottleneck ")
                        .append(f.path("bottleneck")).append('\n');
            }
            table.append("locust ended ").append(Instant.ofEpochSecond(0, locustEndedMicros * 1000))
                    .append(", nproc ").append(Runtime.getRuntime().availableProcessors()).append('\n');
            save(out, "table.txt", table.toString());
            System.out.println(table);
            if (Boolean.getBoolean("caplab.live.screenshots")) {
                screenshot(out.resolve("page.png"), api + "/#/run/" + RUN);
                screenshot(out.resolve("report.png"), api + "/api/v1/runs/" + RUN + "/report");
            }

            String report = get(api + "/api/v1/runs/" + RUN + "/report");
            SortedMap<Long, Double> users = LocustStats.aggregatedColumn(history, "User Count");
            SoftAssertions softly = new SoftAssertions();
            // one step per level Locust ran, each steady window inside Locust's own reports of that level: the last
            // ends at Locust's last report of it, not in the idle tail the monitoring went on recording
            softly.assertThat(figures).as(table.toString()).extracting(StepFigures::users)
                    .containsExactly(Arrays.stream(LEVELS).asDoubleStream().boxed().toArray(Double[]::new));
            for (StepFigures f : figures) {
                String context = "step " + f.index() + "\n" + table;
                SortedMap<Long, Double> reported = users.subMap(f.fromMicros() / 1_000_000, f.toMicros() / 1_000_000);
                softly.assertThat(reported.values()).as(context).isNotEmpty().containsOnly(f.users());
                long lastReportOfLevel = users.entrySet().stream().filter(e -> e.getValue() == f.users())
                        .mapToLong(Map.Entry::getKey).max().orElseThrow();
                // the level changed between that report and Locust's next one (a second later, or more when Locust
                // itself was late writing its history); after its last report, within a second of it
                SortedMap<Long, Double> later = users.tailMap(lastReportOfLevel + 1);
                long levelEndBound = later.isEmpty() ? lastReportOfLevel + 1 : later.firstKey();
                softly.assertThat(f.toMicros()).as("step end vs Locust's reports of its level and the next; " + context)
                        .isLessThanOrEqualTo(levelEndBound * 1_000_000);

                // requests/s: Locust's own Total Request Count of its Aggregated row, from its first to its last
                // report inside the step's steady window, counted once beside the per-endpoint rows
                softly.assertThat(f.requestsPerSecond()).as("requests/s vs Locust's counter; " + context)
                        .isCloseTo(f.locustRequestsPerSecond(), within(0.01 * f.locustRequestsPerSecond()));
                softly.assertThat(reportCell(report, f.index(), "rps")).as("report requests/s; " + context)
                        .isCloseTo(f.locustRequestsPerSecond(), within(0.01 * f.locustRequestsPerSecond()));

                // p95: Locust's own window percentiles over the step's steady seconds, combined as the API says
                softly.assertThat(f.latencyCombination()).as(context)
                        .isEqualTo("median of the tool's " + f.locustP95Millis().size() + " window percentiles");
                softly.assertThat(f.p95Millis()).as(context).isEqualTo(f.locustMedianP95());
                softly.assertThat(reportCell(report, f.index(), "p95")).as("report p95; " + context)
                        .isCloseTo(f.locustMedianP95(), within(0.5));

                // the server's CPU: process-exporter's counters scraped once a second, each step's median of
                // per-second rates, against the kernel's mean over the same window; 0.03 cores + 5 % covers the
                // median-mean gap of a steady load and a scrape landing a few ms off a second's edge
                softly.assertThat(f.serverCores()).as("server cores vs /proc/PID/stat; " + context)
                        .isCloseTo(f.procServerCores(), within(0.03 + 0.05 * f.procServerCores()));
                // the host's CPU is not steady: caplab, Prometheus and Locust share it in bursts, and a scrape's
                // rate covers the second before it, not the kernel's window, so a mean over 11 scrapes can part from
                // the kernel's by a burst. The page's figure is the median of the
                // scraped rates; it is held to the median of the kernel's own per-second rates, within a scrape's
                // phase of a burst: 0.1 cores + 10 %. The mean is of the steady scrapes only, as the kernel's:
                // the warm-up (Locust spawning users, caplab starting the run) is in neither.
                softly.assertThat(f.hostCores()).as("host sustained cores vs /proc/stat's per-second median; "
                        + context).isCloseTo(f.procHostMedianCores(), within(0.1 + 0.1 * f.procHostMedianCores()));
                softly.assertThat(f.hostMeanCores()).as("host mean cores vs /proc/stat's mean; " + context)
                        .isCloseTo(f.procHostCores(), within(0.1 + 0.1 * f.procHostCores()));
            }

            // inferred steps carry their bounds and the warm-up cut from them
            for (JsonNode step : detail.path("steps")) {
                softly.assertThat(step.path("startedAt").isString() && step.path("endedAt").isString()
                        && step.path("warmupMillis").asLong() > 0).as("bounds of %s", step).isTrue();
            }
            // no SLO rules: nothing was judged, and no max stable load is claimed
            softly.assertThat(figures).as(table.toString()).extracting(StepFigures::verdict).containsOnly("not judged");
            softly.assertThat(conclusion.path("maxStableX").isNull()).as(table.toString()).isTrue();
            softly.assertThat(conclusion.path("stepsJudged").asInt()).as(table.toString()).isZero();

            // an agent's own process_* series (the exporters', Prometheus') is never the answer, nor fitted
            List<String> agents = List.of(host + "/process", prometheusSources.get(0) + "/process",
                    prometheusSources.get(1) + "/process");
            JsonNode bottleneck = conclusion.path("bottleneck");
            if (bottleneck.isObject()) {
                softly.assertThat(bottleneck.path("source").asString()).as(table.toString()).isNotIn(agents);
                softly.assertThat(bottleneck.path("role").asString()).as(table.toString()).isIn("sut", "host");
            }
            // node_exporter's host is planned against the machine's own CPUs (the cpuN lines of /proc/stat)
            long cpus = Files.readAllLines(Path.of("/proc/stat")).stream().filter(l -> l.matches("cpu\\d+ .*")).count();
            for (JsonNode estimate : conclusion.path("resources")) {
                softly.assertThat(estimate.path("source").asString()).as(table.toString()).isNotIn(agents);
                if (estimate.path("source").asString().equals(host) && estimate.path("metric").asString()
                        .equals("cpu.cores")) {
                    softly.assertThat(estimate.path("ceiling").asDouble()).as("host ceiling; " + table)
                            .isEqualTo((double) cpus);
                }
            }
            // a knee only where the break is significant and its interval inside the tested loads
            for (JsonNode fit : JSON.readTree(get(api + "/api/v1/runs/" + RUN + "/fits"))) {
                if (fit.path("kneeX").isNumber()) {
                    String context = fit.path("metric").asString() + "@" + fit.path("source").asString() + "\n" + table;
                    softly.assertThat(fit.path("breakpointPValue").asDouble(1)).as(context).isLessThan(0.05);
                    softly.assertThat(fit.path("kneeLower95").asDouble()).as(context).isGreaterThanOrEqualTo(LEVELS[0]);
                    softly.assertThat(fit.path("kneeUpper95").asDouble()).as(context)
                            .isLessThanOrEqualTo(LEVELS[LEVELS.length - 1]);
                }
            }
            softly.assertAll();
        }
    }

    /** A number the report's traffic table shows for a step: the cell of class {@code cell} in its row. */
    private static double reportCell(String html, int step, String cell) {
        java.util.regex.Matcher row = java.util.regex.Pattern.compile("<tr class=\"traffic-step\" data-step=\"" + step
                + "\">(.*?)</tr>").matcher(html);
        if (!row.find()) {
            return Double.NaN;
        }
        java.util.regex.Matcher value = java.util.regex.Pattern.compile("<td class=\"" + cell + "\">([-0-9.,]+)</td>")
                .matcher(row.group(1));
        return value.find() ? Double.parseDouble(value.group(1).replace(",", "")) : Double.NaN;
    }

    /** What the page and report show for one step beside the truth, over the step's steady window [from, to). */
    record StepFigures(int index, double users, long fromMicros, long toMicros, double requestsPerSecond,
                       double locustRequestsPerSecond, double p95Millis, SortedMap<Long, Double> locustP95Millis,
                       double serverCores, double procServerCores, double hostCores, double hostMeanCores,
                       double procHostCores, double procHostMedianCores, String verdict, String bottleneck,
                       String latencyCombination) {

        static final String HEADER = String.format(
                "%-4s %5s %-8s %-8s %8s %9s %8s %8s %-17s %8s %8s %8s %8s %9s %8s %-10s %s%n",
                "step", "users", "from", "to", "req/s", "locust", "p95 ms", "locust", "(windows)", "srv cpu",
                "/proc", "host med", "/proc", "host mean", "/proc", "verdict", "bottleneck / percentiles from");

        String line() {
            java.util.DoubleSummaryStatistics p = locustP95Millis.values().stream().mapToDouble(Double::doubleValue)
                    .summaryStatistics();
            String locust = p.getCount() == 0 ? "-" : String.format("%.0f..%.0f (%d)", p.getMin(), p.getMax(),
                    p.getCount());
            return String.format(
                    "%-4d %5.0f %-8s %-8s %8.2f %9.2f %8.1f %8.1f %-17s %8.3f %8.3f %8.3f %8.3f %9.3f %8.3f %-10s %s / %s%n",
                    index, users, clock(fromMicros), clock(toMicros), requestsPerSecond, locustRequestsPerSecond,
                    p95Millis, locustMedianP95(), locust, serverCores, procServerCores, hostCores, procHostMedianCores,
                    hostMeanCores, procHostCores, verdict, bottleneck, latencyCombination);
        }

        /** The median of Locust's own window p95s over the step's seconds (the mean of the middle two if even). */
        double locustMedianP95() {
            double[] v = locustP95Millis.values().stream().mapToDouble(Double::doubleValue).sorted().toArray();
            return v.length == 0 ? Double.NaN : v.length % 2 == 1 ? v[v.length / 2]
                    : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        }

        private static String clock(long micros) {
            return java.time.LocalTime.ofInstant(Instant.ofEpochSecond(0, micros * 1000), java.time.ZoneOffset.UTC)
                    .toString();
        }
    }

    /** {@code caplab ingest --format locust --follow} as the launcher runs it: the built jar in its own JVM. */
    private static Process startIngest(Path csv, String bootstrap, Path log) throws Exception {
        Path root = dev.caplab.app.RepoRoot.find();
        Path jar = root.resolve("app/target/caplab-exec.jar");
        assertThat(jar).as("the packaged CLI").isRegularFile();
        return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "@" + root.resolve("app/src/main/jvm/caplab.jvmopts"), "-jar", jar.toString(), "ingest", "--format",
                "locust", "--follow", "--file", csv.toString(), "--run", RUN, "--bootstrap-servers", bootstrap)
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static void screenshot(Path png, String url) throws Exception {
        Process p = new ProcessBuilder("/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--window-size=1400,4000", "--virtual-time-budget=15000",
                "--screenshot=" + png.toAbsolutePath(), url).redirectErrorStream(true)
                .redirectOutput(png.resolveSibling(png.getFileName() + ".log").toFile()).start();
        p.waitFor(60, TimeUnit.SECONDS);
    }

    private static double locustRate(List<LocustStats.HistoryRow> rows, long fromMicros, long toMicros) {
        List<LocustStats.HistoryRow> inside = rows.stream().filter(r -> r.epochSecond() * 1_000_000 >= fromMicros
                && r.epochSecond() * 1_000_000 < toMicros).toList();
        // a history row reports what Locust counted since the row before it: the steady part's count runs from the
        // last warm-up row to its own last row
        LocustStats.HistoryRow first = rows.stream().filter(r -> r.epochSecond() * 1_000_000 < fromMicros)
                .reduce((a, b) -> b).orElse(inside.isEmpty() ? null : inside.getFirst());
        if (inside.isEmpty() || first == null || first == inside.getLast()) {
            return Double.NaN;
        }
        return (inside.getLast().totalRequests() - first.totalRequests())
                / (double) (inside.getLast().epochSecond() - first.epochSecond());
    }


    private static JsonNode stepOf(JsonNode steps, int index) {
        for (JsonNode s : steps) {
            if (s.path("stepIndex").asInt() == index) {
                return s;
            }
        }
        return JSON.createObjectNode();
    }

    private static JsonNode aggregate(JsonNode aggregates, int index, String source) {
        for (JsonNode a : aggregates) {
            if (a.path("stepIndex").asInt() == index && a.path("source").asString().equals(source)) {
                return a;
            }
        }
        return JSON.createObjectNode();
    }

    private static long micros(JsonNode instant) {
        if (instant.isMissingNode() || instant.isNull()) {
            return 0;
        }
        Instant at = Instant.parse(instant.asString());
        return at.getEpochSecond() * 1_000_000 + at.getNano() / 1000;
    }

    private static void awaitFile(Path file, Process run, Path log) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!Files.exists(file)) {
            if (!run.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError(file + " never appeared:\n" + Files.readString(log));
            }
            Thread.sleep(100);
        }
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(url + ": " + response.body()).isEqualTo(200);
        return response.body();
    }

    private static JsonNode awaitJson(String url, java.util.function.Predicate<JsonNode> ready, Duration timeout)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                last = JSON.readTree(response.body());
                if (ready.test(last)) {
                    return last;
                }
            }
            Thread.sleep(500);
        }
        // what is there is still checked: the assertions say what is missing
        return last;
    }

    private static void save(Path dir, String name, String text) throws Exception {
        Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }
}
