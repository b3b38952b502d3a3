package dev.caplab.app.up;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.app.CaplabCli;
import dev.caplab.app.RepoRoot;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 16 items 6 and 7 through {@code caplab ingest} against {@code caplab up}: a real k6 {@code --out json} file and a
 * line-protocol file land in ClickHouse; a real {@code iperf3 -J} report (run here on loopback with {@code -b 80M},
 * and a recorded one) becomes the run's egress ceiling, used by the egress fit and shown with where it came from.
 */
class CliIngestIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration PATIENCE = Duration.ofSeconds(120);

    @TempDir
    static Path dataDir;

    private static EmbeddedStack stack;

    @BeforeAll
    static void up() {
        stack = EmbeddedStack.start(new UpSettings(dataDir, "127.0.0.1", 0, 0, 0, false, null, List.of())
                .withRunIdleEnd(Duration.ofSeconds(4)), new PrintStream(new ByteArrayOutputStream()));
    }

    @AfterAll
    static void down() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void k6JsonAndLineProtocolFilesReachClickHouse() throws Exception {
        // k6's own output, less the line the parser tests use to name another run (the CLI rightly rejects it)
        Path k6 = Files.write(dataDir.resolve("k6-results.json"), Files.readAllLines(RepoRoot.find()
                .resolve("ingest/src/test/resources/k6/results.json")).stream()
                .filter(l -> !l.contains("\"other-run\"")).toList());
        Path lineProtocol = RepoRoot.find().resolve("ingest/src/test/resources/influx/k6.lp");
        assertThat(ingest("k6-json", "cli-k6", k6)).isZero();
        assertThat(ingest("influx-line", "cli-lp", lineProtocol)).isZero();

        // independently of the parsers: one sample per k6 Point line, one per line-protocol field
        long points = Files.readAllLines(k6).stream().filter(l -> l.contains("\"type\":\"Point\"")).count();
        long fields = Files.readAllLines(lineProtocol).stream().filter(l -> !l.isBlank() && !l.startsWith("#"))
                .mapToLong(l -> l.split(" ")[1].split(",").length).sum();
        assertThat(await(() -> count("cli-k6"), n -> n >= points)).isEqualTo(points);
        assertThat(await(() -> count("cli-lp"), n -> n >= fields)).isEqualTo(fields);
    }

    /**
     * A run ingested after the fact (its samples ten minutes old) and ended with {@code caplab run end
     * --all-samples-sent} has its step aggregated at once; its twin ended without the flag still waits the grace
     * (30 s of wall clock after its step end, nothing later in its event time).
     */
    @Test
    void aRunEndedWithAllSamplesSentIsAggregatedWithoutWaitingTheGrace() throws Exception {
        Instant t0 = Instant.now().minusSeconds(600).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        long sent = 0;
        for (String run : List.of("cli-silent", "cli-vouched")) {
            String events = "{\"runId\":\"" + run + "\",\"events\":[{\"type\":\"run_started\",\"sut\":\"api\","
                    + "\"startedAt\":\"" + t0 + "\"},{\"type\":\"step_started\",\"index\":0,\"load\":{\"users\":10},"
                    + "\"startedAt\":\"" + t0 + "\"}]}";
            assertThat(post("/api/v1/events", events).statusCode()).isEqualTo(202);
            StringBuilder lines = new StringBuilder();
            for (int s = 0; s < 60; s++) {
                lines.append("cpu,source=sut value=").append(0.5 + s % 3 * 0.1).append(' ')
                        .append(t0.getEpochSecond() + s).append('\n');
            }
            HttpResponse<String> write = HTTP.send(HttpRequest.newBuilder(uri("/write?db=" + run + "&precision=s"))
                    .POST(HttpRequest.BodyPublishers.ofString(lines.toString())).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(write.statusCode()).as(write.body()).isEqualTo(204);
            assertThat(post("/api/v1/events", "{\"runId\":\"" + run + "\",\"events\":[{\"type\":\"step_ended\","
                    + "\"index\":0,\"endedAt\":\"" + t0.plusSeconds(60) + "\"}]}").statusCode()).isEqualTo(202);
            List<String> end = new java.util.ArrayList<>(List.of("run", "end", "--bootstrap-servers",
                    stack.bootstrapServers(), "--run", run));
            if (run.equals("cli-vouched")) {
                end.add("--all-samples-sent");
            }
            assertThat(CaplabCli.commandLine().execute(end.toArray(String[]::new))).isZero();
            sent = System.nanoTime();
        }

        long aggregated = await(() -> stepRows("cli-vouched"), n -> n > 0);
        Duration took = Duration.ofNanos(System.nanoTime() - sent);
        assertThat(aggregated).isPositive();
        assertThat(took).as("ended with --all-samples-sent → step aggregate stored").isLessThan(Duration.ofSeconds(20));
        assertThat(stepRows("cli-silent")).as("the twin ended without the flag, still within its grace").isZero();
    }

    private static long stepRows(String run) throws Exception {
        try (Connection c = DriverManager.getConnection(stack.clickhouseJdbcUrl(), "default", "");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count() FROM step_aggregates WHERE run_id = '" + run
                     + "' AND step_index = 0 AND metric = 'cpu'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static HttpResponse<String> post(String path, String json) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theFormatsHelpListsExactlyTheRegistry() {
        String help = CaplabCli.commandLine().getSubcommands().get("ingest").getUsageMessage().replaceAll("\\s+", " ");
        assertThat(help).contains("Input format: " + String.join(", ", dev.caplab.ingest.adapter.Adapters.formats())
                + ".");
    }

    @Test
    void aLiveIperf3ReportBecomesTheRunsEgressCeiling() throws Exception {
        Path report = Files.createTempFile(dataDir, "iperf3-", ".json");
        Files.writeString(report, liveIperf3());
        assertCeiling("iperf-live", report);
    }

    @Test
    void aRecordedIperf3ReportBecomesTheRunsEgressCeiling() throws Exception {
        Path report = RepoRoot.find().resolve("app/src/test/resources/iperf3/loopback-80m.json");
        assertCeiling("iperf-recorded", report);
    }

    /** The report goes in first; then a three-step run (vus 10, 20, 30) with egress rising, fed by line protocol. */
    private static void assertCeiling(String run, Path report) throws Exception {
        JsonNode json = JSON.readTree(Files.readString(report));
        double senderBitsPerSecond = senderBitsPerSecond(json);
        assertThat(senderBitsPerSecond).as("a report with a sender rate: %s", json).isPositive();
        assertThat(ingest("iperf3", run, report)).isZero();

        long t0 = Instant.now().minusSeconds(900).getEpochSecond();
        StringBuilder lines = new StringBuilder();
        for (int s = 0; s < 180; s++) {
            int vus = 10 * (1 + s / 60);
            double egressBytesPerSecond = 2_000 * vus + 50 * (s % 7);
            lines.append("vus,source=k6 value=").append(vus).append(' ').append(t0 + s).append('\n');
            lines.append("net.tx.bytes,source=sut value=").append(egressBytesPerSecond).append(' ').append(t0 + s)
                    .append('\n');
        }
        HttpResponse<String> write = HTTP.send(HttpRequest.newBuilder(uri("/write?db=" + run + "&precision=s"))
                .POST(HttpRequest.BodyPublishers.ofString(lines.toString())).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(write.statusCode()).as(write.body()).isEqualTo(204);

        JsonNode detail = await(() -> detail(run), d -> fit(d, "net.tx.bytes") != null
                && fit(d, "net.tx.bytes").path("stepsUsed").asInt() == 3);
        double mbps = senderBitsPerSecond / 1e6;
        assertThat(detail.path("egressCeiling").path("mbps").asDouble()).isCloseTo(mbps, within(1e-9 * mbps));
        assertThat(detail.path("egressCeiling").path("source").asString()).isEqualTo("MEASURED");
        assertThat(detail.path("egressCeiling").path("text").asString()).startsWith("measured by iperf3 at ");
        assertThat(fit(detail, "net.tx.bytes").path("capacity").asDouble()).as("bytes/s")
                .isCloseTo(senderBitsPerSecond / 8, within(1e-6 * senderBitsPerSecond));
    }

    private static JsonNode fit(JsonNode detail, String metric) {
        for (JsonNode f : detail.path("fits")) {
            if (f.path("metric").asString().equals(metric)) {
                return f;
            }
        }
        return null;
    }

    /** {@code iperf3 -s -1} and {@code iperf3 -c 127.0.0.1 -t 2 -b 80M -J} on a free loopback port: the client's report. */
    private static String liveIperf3() throws Exception {
        Path iperf3 = Path.of("/usr/bin/iperf3");
        if (!Files.isExecutable(iperf3)) {
            String why = "iperf3 is not installed (scripts/install-prereqs.sh installs Debian's)";
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError(why);
            }
            Assumptions.abort(why);
        }
        // iperf3 is the oracle here, so a report it did not finish is retried, never fed to caplab: a CI once got a
        // client exit status 0 whose report had no end.sum_sent rate at all
        StringBuilder unusable = new StringBuilder();
        for (int report = 0; report < 3; report++) {
            String out = oneIperf3Test(iperf3);
            if (senderBitsPerSecond(JSON.readTree(out)) > 0) {
                return out;
            }
            unusable.append("\n--- report ").append(report + 1).append(" without a sender rate:\n").append(out);
        }
        throw new AssertionError("iperf3 gave no report with a sender rate in 3 tests:" + unusable);
    }

    /** The sender's rate over the whole test in an iperf3 {@code -J} report; 0 when the report has none. */
    private static double senderBitsPerSecond(JsonNode report) {
        return report.path("end").path("sum_sent").path("bits_per_second").asDouble();
    }

    /** One {@code iperf3 -s -1} server and its client's {@code -J} output once the client exits 0. */
    private static String oneIperf3Test(Path iperf3) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Process server = new ProcessBuilder(iperf3.toString(), "-s", "-1", "-B", "127.0.0.1", "-p",
                Integer.toString(port)).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            for (int attempt = 0; ; attempt++) {
                Process client = new ProcessBuilder(iperf3.toString(), "-c", "127.0.0.1", "-p",
                        Integer.toString(port), "-t", "2", "-b", "80M", "-J").start();
                String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (client.waitFor(30, TimeUnit.SECONDS) && client.exitValue() == 0) {
                    return out;
                }
                if (attempt >= 20) {
                    throw new AssertionError("iperf3 client failed: " + out);
                }
                Thread.sleep(200); // the server is not listening yet
            }
        } finally {
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static int ingest(String format, String run, Path file) {
        return CaplabCli.commandLine().execute("ingest", "--format", format, "--run", run, "--file",
                file.toString(), "--bootstrap", stack.bootstrapServers());
    }

    private static long count(String run) throws Exception {
        try (Connection c = DriverManager.getConnection(stack.clickhouseJdbcUrl(), "default", "");
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count() FROM samples WHERE run_id = '" + run + "'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static JsonNode detail(String run) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri("/api/v1/runs/" + run)).build(),
                HttpResponse.BodyHandlers.ofString());
        return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
    }

    private interface Probe<T> {
        T get() throws Exception;
    }

    private static <T> T await(Probe<T> probe, Predicate<T> done) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        T last = null;
        while (System.nanoTime() < deadline) {
            last = probe.get();
            if (last != null && done.test(last)) {
                return last;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("never got there; last seen: " + last);
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + stack.httpPort() + path);
    }
}
