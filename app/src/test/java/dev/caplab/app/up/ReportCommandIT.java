package dev.caplab.app.up;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.app.CliRun;
import dev.caplab.app.load.SteppedRunOverHttp;
import dev.caplab.app.load.WriteClients;
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
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code caplab report} against {@code caplab up} with a token: two stepped runs sent over HTTP as a load generator
 * would ({@link SteppedRunOverHttp}: steps 0-4 pass, 5-7 fail p95 ≤ 500 ms; latency 120 then 900 ms; one request per
 * second with a 5 s warm-up in 30 s steps) go through Kafka, Streams and the sink; the command saves the reports
 * of one run and of both, byte for byte what the endpoints serve.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReportCommandIT {

    private static final String SECRET = "report-it-token-0123456789";
    private static final String BEARER = "Bearer " + SECRET;
    private static final String RUN_A = "report-it-a";
    private static final String RUN_B = "report-it-b";
    private static final Duration SETTLED_WITHIN = Duration.ofMinutes(5);
    private static final HttpClient HTTP = WriteClients.newClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Path dataDir;
    private EmbeddedStack stack;

    @BeforeAll
    void startAndSendTwoRuns() throws Exception {
        dataDir = Files.createTempDirectory("caplab-report-it-");
        stack = EmbeddedStack.start(new UpSettings(dataDir, "127.0.0.1", 0, 0, 0, false, null,
                List.of(SECRET + "=read,write")), new PrintStream(new ByteArrayOutputStream()));
        SteppedRunOverHttp.send(HTTP, base(), RUN_A, Instant.parse("2024-03-05T08:00:00Z"), BEARER);
        SteppedRunOverHttp.send(HTTP, base(), RUN_B, Instant.parse("2024-03-05T09:00:00Z"), BEARER);
        awaitSettled(RUN_A);
        awaitSettled(RUN_B);
    }

    @AfterAll
    void stop() throws java.io.IOException {
        if (stack != null) {
            stack.close();
        }
        if (dataDir != null) {
            try (var files = Files.walk(dataDir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void savesOneRunsReportAsTheEndpointServesIt() throws Exception {
        Path file = dataDir.resolve("out/report-a.html");
        CliRun cli = CliRun.of("report", RUN_A, "-o", file.toString(), "--url", base().toString(), "--token",
                SECRET);
        assertThat(cli.exit()).as(cli.err()).isZero();
        assertThat(cli.out()).contains("wrote the report of 1 run to " + file);
        byte[] saved = Files.readAllBytes(file);
        assertThat(saved).isEqualTo(get("/api/v1/runs/" + RUN_A + "/report").body());
        String html = new String(saved, StandardCharsets.UTF_8);

        List<String> verdicts = cells(html, "<td class=\"verdict\">([a-z]+)</td>");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < SteppedRunOverHttp.STEPS; i++) {
            expected.add(i < SteppedRunOverHttp.FIRST_FAILING_STEP ? "pass" : "fail");
        }
        assertThat(verdicts).containsExactlyElementsOf(expected);
        // latency from the merged sketches: 120 ms before the failing step, 900 ms from it (sketch accuracy ~1 %)
        List<String> p95 = cells(html, "<td class=\"p95\">([0-9.]+)</td>");
        assertThat(p95).hasSize(SteppedRunOverHttp.STEPS);
        for (int i = 0; i < p95.size(); i++) {
            assertThat(Double.parseDouble(p95.get(i))).as("p95 of step %d", i)
                    .isCloseTo(i < SteppedRunOverHttp.FIRST_FAILING_STEP ? 120 : 900, within(9.0));
        }
        // one request per second over the 25 steady seconds of each step
        assertThat(cells(html, "<td class=\"rps\">([0-9.]+)</td>")).allSatisfy(
                rps -> assertThat(Double.parseDouble(rps)).isCloseTo(1.0, within(0.05)));
        // host CPU breaks at 10 users by design: the fitted knee is near it, and each step is a point of the chart
        List<String> knee = cells(html, "<tr class=\"fit\" data-metric=\"cpu.cores\">.*?<td class=\"knee\">([0-9.]+)</td>");
        assertThat(knee).hasSize(1);
        assertThat(Double.parseDouble(knee.getFirst())).isCloseTo(SteppedRunOverHttp.users(4), within(1.0));
        assertThat(cells(html, "<circle class=\"point use [a-z]+\" cx=\"[0-9.]+\" cy=\"[0-9.]+\" r=\"4\" data-x=\"([0-9.]+)\""))
                .hasSize(SteppedRunOverHttp.STEPS);
    }

    @Test
    void savesTwoRunsSideBySide() throws Exception {
        Path file = dataDir.resolve("two.html");
        CliRun cli = CliRun.of("report", RUN_B, RUN_A, "-o", file.toString(), "--url", base().toString(),
                "--token", SECRET);
        assertThat(cli.exit()).as(cli.err()).isZero();
        byte[] saved = Files.readAllBytes(file);
        assertThat(saved).isEqualTo(get("/api/v1/report?run=" + RUN_B + "&run=" + RUN_A).body());
        String html = new String(saved, StandardCharsets.UTF_8);
        assertThat(cells(html, "<section class=\"run\" data-run=\"([^\"]+)\">")).containsExactly(RUN_B, RUN_A);
        assertThat(cells(html, "<td class=\"verdict\">([a-z]+)</td>")).hasSize(2 * SteppedRunOverHttp.STEPS);
    }

    @Test
    void failuresNameTheUrlAndWhatCaplabAnswered() throws Exception {
        CliRun unknown = CliRun.of("report", "no-such-run", "-o", dataDir.resolve("x.html").toString(), "--url",
                base().toString(), "--token", SECRET);
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(unknown.err()).contains("answered 404").contains("no-such-run");
        CliRun anonymous = CliRun.of("report", RUN_A, "-o", dataDir.resolve("y.html").toString(), "--url",
                base().toString());
        assertThat(anonymous.exit()).isEqualTo(1);
        assertThat(anonymous.err()).contains("answered 401");
        assertThat(dataDir.resolve("x.html")).doesNotExist();
        assertThat(dataDir.resolve("y.html")).doesNotExist();
    }


    private static List<String> cells(String html, String regex) {
        Matcher m = Pattern.compile(regex).matcher(html);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private URI base() {
        return URI.create("http://127.0.0.1:" + stack.httpPort());
    }

    private HttpResponse<byte[]> get(String path) throws Exception {
        HttpResponse<byte[]> response = HTTP.send(HttpRequest.newBuilder(base().resolve(path))
                .header("Authorization", BEARER).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return response;
    }

    /** Every step judged and the CPU fit in: the sink caught up with the run. */
    private void awaitSettled(String runId) throws Exception {
        long deadline = System.nanoTime() + SETTLED_WITHIN.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(base().resolve("/api/v1/runs/" + runId))
                    .header("Authorization", BEARER).GET().build(), HttpResponse.BodyHandlers.ofString());
            last = answer.statusCode() + " " + answer.body();
            if (answer.statusCode() == 200) {
                JsonNode detail = JSON.readTree(answer.body());
                int judged = 0;
                for (JsonNode step : detail.path("steps")) {
                    judged += step.path("passed").isBoolean() ? 1 : 0;
                }
                boolean cpuFit = false;
                for (JsonNode fit : detail.path("fits")) {
                    cpuFit |= "cpu.cores".equals(fit.path("metric").asString());
                }
                if (judged == SteppedRunOverHttp.STEPS && cpuFit) {
                    return;
                }
            }
            Thread.sleep(1000);
        }
        throw new AssertionError("run " + runId + " not judged and fitted within " + SETTLED_WITHIN + "; last: "
                + last + "; roles " + stack.roleStatuses());
    }
}
