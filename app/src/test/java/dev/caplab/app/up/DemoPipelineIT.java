package dev.caplab.app.up;

import static org.assertj.core.api.Assertions.assertThat;

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
 * sink, ClickHouse) and the API tells the field reports' conclusions; the notebooks execute against it.
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

    @Test
    void notebooksExecuteAgainstTheRunningApi() throws Exception {
        for (String runId : List.of("demo-ep19-lightnode-1vcpu", "demo-ep19-lightnode-manila-2vcpu",
                "demo-ep19-aws-lightsail-2vcpu")) {
            awaitRun(runId, DemoPipelineIT::settled);
        }
        Path root = RepoRoot.find();
        Path log = dataDir.resolve("notebooks.log");
        ProcessBuilder notebooks = new ProcessBuilder("bash", root.resolve("notebooks/run-notebooks.sh").toString(),
                dataDir.resolve("notebooks").toString())
                .directory(root.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        notebooks.environment().put("CAPLAB_URL", "http://127.0.0.1:" + stack.httpPort());
        Process run = notebooks.start();
        boolean finished = run.waitFor(15, TimeUnit.MINUTES);
        String output = Files.readString(log);
        assertThat(finished).as("notebooks finished in time:\n" + output).isTrue();
        assertThat(run.exitValue()).as(output).isZero();
        assertThat(output).contains("notebooks: 3 passed, 0 failed");
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
