package dev.caplab.query.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.query.testing.StoreTestSupport;
import dev.caplab.query.testing.Tokens;
import dev.caplab.query.testing.TopologyFeed;
import dev.caplab.schema.event.Comparator;
import dev.caplab.schema.event.Environment;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunOrigin;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.RunStatus;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SloRule;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.event.SystemUnderTest;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.store.testing.TestDatabase;
import dev.caplab.streams.TopologySettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.util.HtmlUtils;

/**
 * What the report's verdict, fits and capacity plan say of two runs whose every derived row the production topology
 * made from raw readings ({@link TopologyFeed}), in a database of their own: a run that holds only the load tool's
 * readings (k6's request latency, no CPU, memory or network), and one whose CPU line reaches its planning margin far
 * beyond the highest load it tested. Both hold {@link #USERS} users for {@value #STEP_SECONDS} s each at
 * {@value #LATENCY_MS} ms, well inside their p95 ≤ {@value #P95_LIMIT_MS} ms rule, so every step passes.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import(ReportCapacityPlanIT.Store.class)
class ReportCapacityPlanIT {

    static final String LOAD_ONLY = "load-tool-only";
    static final String LINE = "cpu-line";
    private static final double[] USERS = {10, 20, 30};
    private static final int STEP_SECONDS = 20;
    private static final int WARMUP_SECONDS = 5;
    private static final double LATENCY_MS = 120;
    private static final double P95_LIMIT_MS = 500;
    private static final double VCPU = 2;
    /** The CPU line of {@link #LINE}: base and slope, cores and cores per user. */
    private static final double BASE_CORES = 0.1;
    private static final double CORES_PER_USER = 0.01;
    private static final Instant STARTED = Instant.parse("2026-08-03T09:00:00Z");
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static TestDatabase database;

    @LocalServerPort
    int port;

    static synchronized TestDatabase database() {
        if (database == null) {
            database = EmbeddedClickHouse.shared().freshDatabase("report_capacity_plan");
            derive(LOAD_ONLY, false, database.dataSource());
            derive(LINE, true, database.dataSource());
        }
        return database;
    }

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        StoreTestSupport.properties(registry, ReportCapacityPlanIT::database);
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class Store {
        @Bean
        DataSource dataSource() {
            return database().dataSource();
        }
    }

    @Test
    void aRunWithOnlyTheLoadToolsReadingsSaysNoResourceWasMeasuredAndWhatToSend() throws Exception {
        String html = report(LOAD_ONLY);
        String text = text(html);
        // every step at 120 ms against p95 ≤ 500 ms: all pass, so the run holds its last step, 30 users
        assertThat(text).contains("holds users = 30 under its rules (p95 of http.req.duration.ms ≤ 500 ms), and no"
                + " tested load failed; no resource of the system was measured, so what runs out first is unknown;");
        assertThat(section(html, "Capacity plan")).isEqualTo("No resource was measured, so no capacity plan can be"
                + " made: this run holds only the load tool's readings, no CPU, memory or network of the system under"
                + " test. Run a host sampler (caplab sample --run " + LOAD_ONLY + ") on the server, or send its"
                + " node_exporter, docker stats or process-exporter readings beside the load, to see what runs out"
                + " first and get a capacity plan.");
        assertThat(section(html, "Fits")).isEqualTo("No fits: no resource was measured in any step (the capacity plan"
                + " below says what to send).");
        assertThat(text).doesNotContain("A profile of x =").doesNotContain("is left out")
                .doesNotContain("no resource reached its planning margin");
        save(LOAD_ONLY, html);
    }

    @Test
    void aSafeLoadBeyondTheTestedLoadsIsMarkedInTheVerdictTheFitsAndThePlan() throws Exception {
        String html = report(LINE);
        String text = text(html);
        // CPU = 0.1 + 0.01·users cores on 2 vCPU: 60 % of 2 cores is 1.2 cores at (1.2 − 0.1) / 0.01 = 110 users,
        // past the highest tested load, 30; the plan at the max stable load 30 needs 0.1 + 0.3 = 0.4 cores (20 %)
        double safe = (0.6 * VCPU - BASE_CORES) / CORES_PER_USER;
        double full = (VCPU - BASE_CORES) / CORES_PER_USER;
        assertThat(safe).isEqualTo(110, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(full).isEqualTo(190, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(text).contains("cpu.cores of node (sut) runs out first: it reaches 60 % of its ceiling at users ≈"
                + " 110 (beyond the tested 30);");
        assertThat(text).contains("≈ 110 (beyond the tested 30) (at 60 % of the ceiling)");
        assertThat(text).contains("safe load (within the margin) ≈ 110 (beyond the tested 30)")
                .contains("load at full ceilings ≈ 190 (beyond the tested 30)")
                .contains("cpu.cores 2 cores 0.4 cores 20 % ≈ 110 (beyond the tested 30)");
        assertThat(ReportEndpointIT.count(html, "class=\"note beyond-tested-note\"")).as("under the fits and the plan")
                .isEqualTo(2);
        save(LINE, html);
    }

    /**
     * Feeds one run to the production topology as it would arrive: its start (2 vCPU, the p95 rule), each step's
     * start, a second's readings at a time and its end, then the run's end and the grace, and stores what it derived.
     * Each second holds 10 requests of {@value #LATENCY_MS} ms from k6 and, with {@code cpu}, the node's CPU on its
     * line.
     */
    private static void derive(String runId, boolean cpu, DataSource ds) {
        Instant started = STARTED.plusSeconds(cpu ? 3_600 : 0);
        try (TopologyFeed feed = new TopologyFeed(TopologySettings.defaults())) {
            feed.lifecycle(runId, RunStarted.newBuilder().setRunId(runId).setStartedAt(started)
                    .setSut(SystemUnderTest.newBuilder().setName("shop").setVersion("1.0").build())
                    .setEnvironment(Environment.newBuilder().setProvider("hetzner").setTier("cx22").setVcpu(VCPU)
                            .build())
                    .setTool("k6").setSloRules(List.of(SloRule.newBuilder().setName("p95(http.req.duration.ms)<=500")
                            .setMetric(MetricNames.HTTP_DURATION_MS).setStatistic("p95").setComparator(Comparator.LE)
                            .setThreshold(P95_LIMIT_MS).build()))
                    .setLoadExpression("users").setOrigin(RunOrigin.DECLARED).build());
            for (int i = 0; i < USERS.length; i++) {
                Instant from = started.plusSeconds((long) STEP_SECONDS * i);
                feed.lifecycle(runId, StepStarted.newBuilder().setRunId(runId).setStepIndex(i)
                        .setLoad(Map.of("users", USERS[i])).setStartedAt(from)
                        .setWarmupMicros(WARMUP_SECONDS * 1_000_000L).build());
                List<Sample> samples = new ArrayList<>();
                for (int k = 0; k < STEP_SECONDS; k++) {
                    Instant at = from.plusSeconds(k);
                    for (int j = 0; j < 10; j++) {
                        samples.add(gauge(at.plusMillis(100L * j), "k6", MetricNames.HTTP_DURATION_MS, LATENCY_MS));
                    }
                    if (cpu) {
                        samples.add(gauge(at, "node", MetricNames.CPU_CORES, BASE_CORES + CORES_PER_USER * USERS[i]));
                    }
                }
                feed.samples(runId, samples);
                feed.lifecycle(runId, StepEnded.newBuilder().setRunId(runId).setStepIndex(i)
                        .setEndedAt(from.plusSeconds(STEP_SECONDS)).build());
            }
            feed.lifecycle(runId, RunEnded.newBuilder().setRunId(runId)
                    .setEndedAt(started.plusSeconds((long) STEP_SECONDS * USERS.length)).setStatus(RunStatus.COMPLETED)
                    .build());
            feed.advance(Duration.ofSeconds(31));
            feed.storeAll(ds, runId);
        }
    }

    private static Sample gauge(Instant at, String source, String metric, double value) {
        return Sample.newBuilder().setTimestamp(at).setSource(source).setMetric(metric).setKind(SampleKind.GAUGE)
                .setValue(value).setLabels(Map.of()).build();
    }

    private String report(String runId) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/api/v1/runs/" + runId + "/report")).header("Authorization", Tokens.READ).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }

    /** What a reader sees of the document: tags gone, entities read, runs of white space as one. */
    private static String text(String html) {
        return HtmlUtils.htmlUnescape(html.replaceAll("(?s)<style>.*?</style>", "").replaceAll("<[^>]*>", " "))
                .replaceAll("\\s+", " ");
    }

    /** The text between the h3 named {@code heading} and the next h3. */
    private static String section(String html, String heading) {
        int from = html.indexOf("<h3>" + heading + "</h3>");
        assertThat(from).as("section " + heading).isNotNegative();
        int body = from + ("<h3>" + heading + "</h3>").length();
        int to = html.indexOf("<h3>", body);
        return text(html.substring(body, to < 0 ? html.length() : to)).trim();
    }

    private static void save(String name, String html) throws IOException {
        Files.createDirectories(ReportEndpointIT.REPORTS);
        Files.writeString(ReportEndpointIT.REPORTS.resolve("capacity-plan-" + name + ".html"), html);
    }
}
