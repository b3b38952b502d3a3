package dev.caplab.app.up;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import dev.caplab.app.RepoRoot;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a new user sees after {@code caplab up}: the demo runs went through the real pipeline (Kafka, Streams,
 * sink, ClickHouse) and the API tells the field reports' conclusions; the notebooks execute against it and against
 * a run sent fresh, and show the figures the report and the sent run's arithmetic give.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DemoPipelineIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Path dataDir;
    private EmbeddedStack stack;

    @BeforeAll
    void startWithDemo() throws Exception {
        dataDir = Files.createTempDirectory("caplab-demo-it-");
        stack = EmbeddedStack.start(new UpSettings(dataDir, "127.0.0.1", 0, 0, 0, true, null, List.of()),
                new PrintStream(new ByteArrayOutputStream()));
    }

    @AfterAll
    void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void oneVcpuNodeHoldsEighteenAndFallsOffACliffAtNineteen() throws Exception {
        JsonNode detail = awaitRun("demo-ep19-lightnode-1vcpu", DemoPipelineIT::settled);
        assertThat(detail.path("maxStableX").asDouble()).isEqualTo(18.0);
        assertThat(detail.path("failedX").asDouble()).isEqualTo(19.0);
        assertThat(detail.path("conclusion").path("bottleneck").path("metric").asString()).containsIgnoringCase("cpu");
    }

    @Test
    void lightNodeIsBandwidthBoundWhereAwsIsMemoryBound() throws Exception {
        JsonNode lightNode = awaitRun("demo-ep19-lightnode-manila-2vcpu", DemoPipelineIT::settled);
        JsonNode aws = awaitRun("demo-ep19-aws-lightsail-2vcpu", DemoPipelineIT::settled);
        assertThat(lightNode.path("maxStableX").asDouble()).isEqualTo(50.0);
        assertThat(aws.path("maxStableX").asDouble()).isEqualTo(250.0);
        assertThat(lightNode.path("conclusion").path("bottleneck").path("metric").asString()).containsIgnoringCase("net");
        assertThat(aws.path("conclusion").path("bottleneck").path("metric").asString()).containsIgnoringCase("mem");
    }

    /**
     * The notebooks run with their defaults against the demo and, through {@code --send-example}, against a history
     * of a stepped HTTP system sent fresh through the HTTP API (notebooks/send_example_run.py). Their headline
     * figures are checked against the field report (demo) and against the example's own arithmetic: one request
     * per user and second up to the saturation point (50 users for version 1.0, 30 for 2.0), then 25 ms more
     * latency per user past it over a 40 ms base with ±10 % noise, steps of 10 to 80 users, SLO p95 ≤ 500 ms.
     */
    @Test
    void notebooksExecuteAgainstTheDemoAndAFreshlySentRun() throws Exception {
        for (String runId : List.of("demo-ep19-lightnode-1vcpu", "demo-ep19-lightnode-manila-2vcpu",
                "demo-ep19-aws-lightsail-2vcpu")) {
            awaitRun(runId, DemoPipelineIT::settled);
        }
        Path root = RepoRoot.find();
        Path log = dataDir.resolve("notebooks.log");
        Path out = dataDir.resolve("notebooks");
        ProcessBuilder notebooks = new ProcessBuilder("bash", root.resolve("notebooks/run-notebooks.sh").toString(),
                "--send-example", out.toString())
                .directory(root.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        notebooks.environment().put("CAPLAB_URL", "http://127.0.0.1:" + stack.httpPort());
        Process run = notebooks.start();
        boolean finished = run.waitFor(15, TimeUnit.MINUTES);
        String output = Files.readString(log);
        assertThat(finished).as("notebooks finished in time:\n" + output).isTrue();
        assertThat(run.exitValue()).as(output).isZero();
        assertThat(output).contains("notebooks: 6 passed, 0 failed");

        // the field report (seeds/002): max stable 250 / 50 / 18 sessions; memory, egress, CPU ran out first
        JsonNode compare = figures(out.resolve("compare_tiers.ipynb"));
        assertThat(compare.path("system").asString()).isEqualTo("mmx");
        assertThat(compare.path("max stable of demo-ep19-aws-lightsail-2vcpu (sessions)").asDouble()).isEqualTo(250);
        assertThat(compare.path("max stable of demo-ep19-lightnode-manila-2vcpu (sessions)").asDouble()).isEqualTo(50);
        assertThat(compare.path("max stable of demo-ep19-lightnode-1vcpu (sessions)").asDouble()).isEqualTo(18);
        assertThat(compare.path("runs out first on demo-ep19-aws-lightsail-2vcpu").asString()).isEqualTo("memory");
        assertThat(compare.path("runs out first on demo-ep19-lightnode-manila-2vcpu").asString()).isEqualTo("egress");
        assertThat(compare.path("runs out first on demo-ep19-lightnode-1vcpu").asString()).isEqualTo("cpu");

        // the fresh run is the history's newest, version 2.0: requests/s stop growing at 30 users, 30 requests/s;
        // p95 at 40 users is at most 1.1 × (40 + 25 × 10) = 319 ms, at 50 at least 0.9 × 540 = 486 ms for 95 %
        // of the requests, so the SLO holds up to 40 and breaks at 50; at 10 users p95 is under 1.1 × 40 = 44 ms
        String fresh = output.lines().filter(l -> l.contains("throughput_latency -r RUN_ID ")).findFirst()
                .map(l -> l.replaceAll(".*-r RUN_ID (\\S+).*", "$1")).orElseThrow();
        JsonNode throughput = figures(out.resolve("throughput_latency." + fresh + ".ipynb"));
        assertThat(throughput.path("run").asString()).isEqualTo(fresh);
        assertThat(throughput.path("throughput limit (users)").asDouble()).isCloseTo(30, within(1.0));
        assertThat(throughput.path("plateau (requests/s)").asDouble()).isCloseTo(30, within(0.5));
        assertThat(throughput.path("max stable (users)").asDouble()).isEqualTo(40);
        assertThat(throughput.path("first failing (users)").asDouble()).isEqualTo(50);
        assertThat(throughput.path("p95 at the lowest step (ms)").asDouble()).isBetween(36.0, 44.5);
        JsonNode curves = figures(out.resolve("run_curves." + fresh + ".ipynb"));
        assertThat(curves.path("max stable (users)").asDouble()).isEqualTo(40);

        // seven runs, the fourth the first of 2.0: the throughput limit falls from 50 to 30 users there
        JsonNode history = figures(out.resolve("history.ipynb"));
        String fourth = fresh.replaceAll("-7$", "-4");
        assertThat(history.path("runs").asInt()).isEqualTo(7);
        assertThat(history.path("throughputLimit change points").asString()).isEqualTo(fourth);
    }

    /** The headline figures a notebook shows in its cell tagged figures (as JSON beside the table). */
    private static JsonNode figures(Path executed) throws Exception {
        for (JsonNode cell : JSON.readTree(Files.readString(executed)).path("cells")) {
            boolean tagged = false;
            for (JsonNode tag : cell.path("metadata").path("tags")) {
                tagged |= tag.asString().equals("figures");
            }
            for (JsonNode output : cell.path("outputs")) {
                if (tagged && output.path("data").has("application/json")) {
                    return output.path("data").path("application/json");
                }
            }
        }
        throw new AssertionError("no figures in " + executed);
    }

    /** Every step has its verdict, the failing step is known, and the fits are in: the sink caught up. */
    private static boolean settled(JsonNode detail) {
        JsonNode steps = detail.path("steps");
        if (steps.size() == 0 || !detail.path("failedX").isNumber() || detail.path("fits").size() == 0) {
            return false;
        }
        for (JsonNode step : steps) {
            if (!step.path("passed").isBoolean()) {
                return false;
            }
        }
        return true;
    }

    private JsonNode awaitRun(String runId, java.util.function.Predicate<JsonNode> ready) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(6).toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + stack.httpPort() + "/api/v1/runs/" + runId)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                last = JSON.readTree(response.body());
                if (ready.test(last)) {
                    return last;
                }
            }
            Thread.sleep(1000);
        }
        throw new AssertionError("run " + runId + " not ready within 6 minutes; last detail: " + last);
    }
}
