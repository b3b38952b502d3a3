package dev.caplab.query.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.query.testing.Ep19Runs;
import dev.caplab.query.testing.RawTraffic;
import dev.caplab.query.testing.RawTrafficFigures;
import dev.caplab.query.testing.Tokens;
import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.store.testing.TestDatabase;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The report endpoints over the real embedded ClickHouse holding the EP19 runs and an HTTP run with a hostile SUT
 * name; the saved files are then opened offline in headless Chromium ({@link OfflineReportBrowser}).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import(ReportEndpointIT.Store.class)
class ReportEndpointIT {

    static final Path REPORTS = Path.of("target", "reports");
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static TestDatabase database;

    @LocalServerPort
    int port;

    static synchronized TestDatabase database() {
        if (database == null) {
            database = EmbeddedClickHouse.shared().freshDatabase("query_report");
            Ep19Runs.write(database.dataSource());
            TrafficRun.write(database.dataSource());
        }
        return database;
    }

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        registry.add("caplab.query.database", () -> database().name());
        registry.add("caplab.query.sql.clickhouse-url", () -> EmbeddedClickHouse.shared().httpUrl());
        registry.add("caplab.query.sql.user", () -> EmbeddedClickHouse.shared().user());
        registry.add("caplab.query.sql.password", () -> EmbeddedClickHouse.shared().password());
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class Store {
        @Bean
        DataSource dataSource() {
            return database().dataSource();
        }
    }

    @Test
    void oneRunsReportHasItsStepsVerdictsAndKnee() throws Exception {
        HttpResponse<String> response = get("/api/v1/runs/" + Ep19Runs.LIGHTNODE_1 + "/report", Tokens.READ);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/html;charset=UTF-8");
        assertThat(response.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(
                csp -> assertThat(csp).startsWith("default-src 'none'"));
        String html = response.body();
        // Ep19Runs: LightNode 1 vCPU steps at 10, 15, 17, 18 pass and 19 fails; its CPU knee is 18 [17.4, 18.6]
        assertThat(count(html, "<tr class=\"step pass")).isEqualTo(4);
        assertThat(count(html, "<tr class=\"step fail")).isEqualTo(1);
        assertThat(html).contains("<td class=\"knee\">18</td>").contains("<td class=\"knee-interval\">17.4 – 18.6</td>")
                .contains("<span class=\"sut\">mmx-standalone</span>").contains("1vcpu-2gb");
        assertThat(html).as("the multi-run form of one run is the same document")
                .isEqualTo(get("/api/v1/report?run=" + Ep19Runs.LIGHTNODE_1, Tokens.READ).body());
        save("ep19-lightnode-1vcpu.html", html);
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
            browser.checkTrafficRun(traffic, "http://127.0.0.1:" + port + "/api/v1/health");
            browser.checkTwoRuns(pair, List.of(TrafficRun.RUN_ID, Ep19Runs.LIGHTNODE_1), List.of(3, 5));
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
