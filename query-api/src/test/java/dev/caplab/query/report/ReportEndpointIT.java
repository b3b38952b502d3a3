package dev.caplab.query.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.query.testing.Ep19Runs;
import dev.caplab.query.testing.RawTraffic;
import dev.caplab.query.testing.RawTrafficFigures;
import dev.caplab.query.testing.Tokens;
import dev.caplab.query.testing.TrafficRun;
import dev.caplab.query.testing.TrafficRunFigures;
import dev.caplab.query.testing.TrafficRunStore;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The report endpoints over the real embedded ClickHouse holding the EP19 runs and an HTTP run with a hostile SUT
 * name whose every derived row the production topology made from raw readings ({@link TrafficRunStore}); the saved
 * files are then opened offline in headless Chromium ({@link OfflineReportBrowser}).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import(TrafficRunStore.class)
class ReportEndpointIT {

    static final Path REPORTS = Path.of("target", "reports");
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        TrafficRunStore.properties(registry);
    }

    @Test
    void oneRunsReportHasItsStepsVerdictsAndKnee() throws Exception {
        HttpResponse<String> response = get("/api/v1/runs/" + TrafficRun.RUN_ID + "/report", Tokens.READ);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/html;charset=UTF-8");
        assertThat(response.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(
                csp -> assertThat(csp).startsWith("default-src 'none'"));
        String html = response.body();
        // what the topology derived from TrafficRun's readings, against the test's arithmetic on those readings:
        // a step passes when its p95 and failed share meet the run's rules; the CPU knee is where the readings'
        // slope changes (least squares), within 2 % of the tested range, inside the printed 95 % interval
        List<TrafficRunFigures> expected = TrafficRunFigures.steps();
        long passing = expected.stream().filter(TrafficRunFigures::passed).count();
        assertThat(passing).as("the readings pass some steps and fail others").isBetween(1L, expected.size() - 1L);
        assertThat(count(html, "<tr class=\"step pass")).isEqualTo(passing);
        assertThat(count(html, "<tr class=\"step fail")).isEqualTo(expected.size() - passing);
        double knee = TrafficRunFigures.cpuKnee(expected);
        Matcher fit = Pattern.compile("<tr class=\"fit\" data-metric=\"cpu.cores\">.*?<td class=\"knee\">([^<]*)</td>"
                + "<td class=\"knee-interval\">([^<]*) – ([^<]*)</td>").matcher(html);
        assertThat(fit.find()).as("the CPU fit's row with a knee").isTrue();
        assertThat(number(fit.group(1))).isCloseTo(knee, within(kneeTolerance()));
        assertThat(number(fit.group(2))).as("95 % interval's lower end").isLessThanOrEqualTo(knee);
        assertThat(number(fit.group(3))).as("95 % interval's upper end").isGreaterThanOrEqualTo(knee);
        assertThat(html).contains("<span class=\"sut\">&lt;script&gt;").contains(TrafficRun.TIER);
        assertThat(html).as("the multi-run form of one run is the same document")
                .isEqualTo(get("/api/v1/report?run=" + TrafficRun.RUN_ID, Tokens.READ).body());
        save("traffic-run-verdicts.html", html);
    }

    /**
     * One report reads each of its statements once however many of its parts (detail, throughput, plan, endpoints)
     * need the rows: no statement text twice, and no more statements than the report's tables and endpoint reads.
     */
    @Test
    void aReportReadsEachTableOnce() throws Exception {
        TrafficRunStore.STATEMENTS.clear();
        assertThat(get("/api/v1/runs/" + TrafficRun.RUN_ID + "/report", Tokens.READ).statusCode()).isEqualTo(200);
        List<String> statements = TrafficRunStore.STATEMENTS.statements();
        assertThat(statements).as("statements of one report").doesNotHaveDuplicates().hasSizeLessThanOrEqualTo(12);
    }

    /** How far the knee shown may lie from the readings' least-squares breakpoint: 2 % of the tested loads' range. */
    private static double kneeTolerance() {
        return 0.02 * (TrafficRun.USERS[TrafficRun.USERS.length - 1] - TrafficRun.USERS[0]);
    }

    private static double number(String text) {
        return Double.parseDouble(text.trim().replace(",", ""));
    }

    @Test
    void twoRunsAreSideBySideInTheOrderAsked() throws Exception {
        HttpResponse<String> response = get("/api/v1/report?run=" + Ep19Runs.LIGHTNODE_2 + "&run="
                + Ep19Runs.LIGHTNODE_1, Tokens.READ);
        assertThat(response.statusCode()).isEqualTo(200);
        String html = response.body();
        assertThat(html).contains("<h2>Side by side</h2>");
        int first = html.indexOf("<section class=\"run\" data-run=\"" + Ep19Runs.LIGHTNODE_2 + "\">");
        int second = html.indexOf("<section class=\"run\" data-run=\"" + Ep19Runs.LIGHTNODE_1 + "\">");
        assertThat(first).isPositive();
        assertThat(second).isGreaterThan(first);
        // LightNode 2 vCPU: 12, 25, 50 pass and 75 fails; 1 vCPU: four pass, one fails
        assertThat(count(html.substring(first, second), "<tr class=\"step ")).isEqualTo(4);
        assertThat(count(html.substring(second), "<tr class=\"step ")).isEqualTo(5);
        save("ep19-lightnode-2-and-1.html", html);
    }

    @Test
    void aHostileSutNameStaysText() throws Exception {
        String html = get("/api/v1/runs/" + TrafficRun.RUN_ID + "/report", Tokens.READ).body();
        assertThat(html.toLowerCase()).doesNotContain("<script").doesNotContain("<b>ops");
        assertThat(html).contains("&lt;script&gt;document.title=&#39;owned&#39;&lt;/script&gt;");
        save("traffic-run.html", html);
    }

    @Test
    void unknownRunsMissingRunsAndMissingTokensAreRefused() throws Exception {
        HttpResponse<String> unknown = get("/api/v1/runs/no-such-run/report", Tokens.READ);
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.body()).contains("no-such-run");
        assertThat(get("/api/v1/report?run=" + Ep19Runs.LIGHTNODE_1 + "&run=no-such-run", Tokens.READ).statusCode())
                .isEqualTo(404);
        HttpResponse<String> none = get("/api/v1/report", Tokens.READ);
        assertThat(none.statusCode()).isEqualTo(400);
        assertThat(none.body()).contains("run");
        assertThat(get("/api/v1/runs/" + Ep19Runs.LIGHTNODE_1 + "/report", null).statusCode()).isEqualTo(401);
        assertThat(get("/api/v1/runs/" + Ep19Runs.LIGHTNODE_1 + "/report", Tokens.WRITE_ONLY).statusCode())
                .isEqualTo(403);
    }

    @Test
    void savedReportsOpenOfflineInChromium() throws Exception {
        Path traffic = save("offline-traffic-run.html",
                get("/api/v1/runs/" + TrafficRun.RUN_ID + "/report", Tokens.READ).body());
        Path pair = save("offline-two-runs.html", get("/api/v1/report?run=" + TrafficRun.RUN_ID + "&run="
                + Ep19Runs.LIGHTNODE_1, Tokens.READ).body());
        try (OfflineReportBrowser browser = OfflineReportBrowser.start()) {
            List<TrafficRunFigures> expected = TrafficRunFigures.steps();
            browser.checkTrafficRun(traffic, "http://127.0.0.1:" + port + "/api/v1/health", expected,
                    TrafficRunFigures.cpuKnee(expected), kneeTolerance());
            browser.checkTwoRuns(pair, List.of(TrafficRun.RUN_ID, Ep19Runs.LIGHTNODE_1),
                    List.of(TrafficRun.USERS.length, 5));
        }
    }

    @Test
    void theThroughputLimitAndTheGeneratorWarningShowInTheOfflineReport() throws Exception {
        Path file = save("offline-ep19-aws-2vcpu.html",
                get("/api/v1/runs/" + Ep19Runs.AWS_2 + "/report", Tokens.READ).body());
        // what the topology derived from RawTraffic's readings, against the test's arithmetic on those readings
        List<RawTrafficFigures> expected = RawTrafficFigures.of(Ep19Runs.AWS_2_STARTED);
        double rise = RawTrafficFigures.lastRisingX(expected);
        double saturated = RawTrafficFigures.firstSaturatedX(expected, 0.9 * rise).orElseThrow();
        double cpu = expected.stream().filter(e -> e.x() == saturated).findFirst().orElseThrow().generatorCpuPercent();
        try (OfflineReportBrowser browser = OfflineReportBrowser.start()) {
            browser.checkThroughputLimit(file, Ep19Runs.AWS_2, RawTraffic.LOAD, rise, 0.1 * rise,
                    expected.stream().map(RawTrafficFigures::requestsPerSecond).toList(),
                    String.format(java.util.Locale.ROOT, "its CPU was at %.0f %% at %s=%d", cpu, RawTraffic.LOAD,
                            (long) saturated));
        }
    }

    private HttpResponse<String> get(String path, String authorization) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Path save(String name, String html) throws IOException {
        Files.createDirectories(REPORTS);
        return Files.writeString(REPORTS.resolve(name), html);
    }

    static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
