package dev.caplab.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryWindow;
import dev.caplab.schema.vocabulary.MetricNames;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Seed 004's Locust run: its final totals are the published table, and its history is what Locust 2.12 writes with
 * {@code --csv-full-history}, read by caplab's Locust adapter (per-second request counters and window percentiles).
 */
class LocustBackendRunTest {

    private static final String[] LEVELS = {"0.5", "0.66", "0.75", "0.8", "0.9", "0.95", "0.98", "0.99", "0.999",
            "0.9999", "1"};
    // Golden data typed from seed 004's table: percentiles in ms, then # reqs.
    private static final Map<String, double[]> TABLE = Map.of(
            "/pepeunit/api/v1/instances", new double[] {11, 14, 17, 19, 28, 44, 82, 110, 260, 550, 550, 9600},
            "/pepeunit/api/v1/instances/current", new double[] {11, 14, 16, 18, 27, 41, 78, 110, 290, 400, 400, 9697},
            "gql:getInstancesRegistries", new double[] {12, 15, 17, 19, 26, 38, 62, 84, 200, 540, 540, 9614},
            "gql:getInstancesUrls", new double[] {12, 14, 17, 18, 27, 40, 64, 93, 350, 540, 540, 9686});
    private static final double[] AGGREGATED = {12, 14, 17, 19, 27, 41, 71, 100, 260, 540, 550, 38597};
    /**
     * The first line of {@code locust --csv X --csv-full-history}'s {@code X_stats_history.csv} and of
     * {@code X_stats.csv}, as Debian's Locust 2.12 wrote them (ingest's fixtures, and a run on 2026-12-06).
     */
    private static final String LOCUST_HISTORY_HEADER = "Timestamp,User Count,Type,Name,Requests/s,Failures/s,50%,"
            + "66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%,Total Request Count,Total Failure Count,"
            + "Total Median Response Time,Total Average Response Time,Total Min Response Time,"
            + "Total Max Response Time,Total Average Content Size";
    private static final String LOCUST_STATS_HEADER = "Type,Name,Request Count,Failure Count,Median Response Time,"
            + "Average Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,"
            + "50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%";

    private final DemoRun run = TestRuns.byId(DemoRuns.LOCUST_BACKEND);
    private final Instant end = new StepFigures(run).step(0).end().minusSeconds(1);

    private Sample totals(String name) {
        return run.samples().stream().filter(s -> s.getKind() == SampleKind.SUMMARY
                && s.getTimestamp().equals(end) && name.equals(s.getLabels().get("name"))
                && s.getSummary().getWindow() == SummaryWindow.CUMULATIVE).findFirst().orElseThrow();
    }

    @Test
    void eachEndpointsFinalCumulativeRowIsThePublishedTableExactly() {
        TABLE.forEach((endpoint, row) -> {
            Sample s = totals(endpoint);
            assertThat(s.getSummary().getCount()).isEqualTo((long) row[11]);
            for (int i = 0; i < LEVELS.length; i++) {
                assertThat(s.getSummary().getQuantiles().get(LEVELS[i])).as("%s p%s", endpoint, LEVELS[i])
                        .isEqualTo(row[i]);
            }
        });
    }

    @Test
    void aggregatedRowIsTheUnionOfEndpointsCloseToThePublishedOne() {
        Sample s = totals(LocustBackendRun.AGGREGATED);
        assertThat(s.getSummary().getCount()).isEqualTo((long) AGGREGATED[11]);
        // up to p95 the union is the published row; the tail depends on the assumed shape between percentiles
        for (int i = 0; i < LEVELS.length; i++) {
            double tolerance = i <= 5 ? 0 : 0.10 * AGGREGATED[i];
            assertThat(s.getSummary().getQuantiles().get(LEVELS[i])).as("Aggregated p%s", LEVELS[i])
                    .isCloseTo(AGGREGATED[i], within(tolerance));
        }
    }

    @Test
    void theFilesHaveLocustsOwnHeaders() {
        LocustBackendRun.LocustCsv csv = LocustBackendRun.requests(new SplittableRandom(4));
        assertThat(csv.history().lines().findFirst()).hasValue(LOCUST_HISTORY_HEADER);
        assertThat(csv.totals().lines().findFirst()).hasValue(LOCUST_STATS_HEADER);
        // Locust's first history row, before any request: 0 users, N/A percentiles, zero totals
        assertThat(csv.history().lines().skip(1).findFirst().orElseThrow())
                .endsWith(",0,,Aggregated,0.000000,0.000000,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,"
                        + "0,0,0,0.0,0,0,0");
    }

    @Test
    void historyCountsEveryRequestOnceASecondWithTheUserRampAndWindowPercentiles() {
        List<Sample> history = run.samples().stream().filter(s -> s.getTimestamp().isBefore(end)).toList();
        List<Sample> users = history.stream().filter(s -> s.getMetric().equals(MetricNames.LOCUST_USERS)).toList();
        assertThat(users).hasSize(120);
        assertThat(StepFigures.max(users)).isEqualTo(400);
        Sample full = users.stream().filter(u -> u.getValue() == 400).findFirst().orElseThrow();
        // spawn rate 10/s: 400 users 40 s after start
        assertThat(StepFigures.seconds(run.runStarted().getStartedAt(), full.getTimestamp())).isEqualTo(40);
        List<Sample> total = history.stream().filter(s -> s.getMetric().equals(MetricNames.HTTP_REQS_COUNT)
                && LocustBackendRun.AGGREGATED.equals(s.getLabels().get("name"))).toList();
        List<Sample> perEndpoint = history.stream().filter(s -> s.getMetric().equals(MetricNames.HTTP_REQS_COUNT)
                && !LocustBackendRun.AGGREGATED.equals(s.getLabels().get("name"))).toList();
        // each second the Aggregated counter is the sum of the endpoints' counters: the same requests once
        assertThat(StepFigures.sumPerTimestamp(perEndpoint)).isEqualTo(total.stream()
                .filter(s -> perEndpoint.stream().anyMatch(p -> p.getTimestamp().equals(s.getTimestamp())))
                .map(Sample::getValue).toList());
        // users wait 1 s between requests: about 400 requests/s once all are spawned (the step's steady part)
        List<Sample> steady = total.subList(60, total.size());
        assertThat(StepFigures.rate(steady)).isCloseTo(400, within(25.0));
        // with --csv-full-history each row's percentiles cover Locust's last ~10 s
        List<Sample> windows = history.stream().filter(s -> s.getKind() == SampleKind.SUMMARY
                && s.getSummary().getWindow() == SummaryWindow.WINDOW
                && LocustBackendRun.AGGREGATED.equals(s.getLabels().get("name"))).toList();
        assertThat(windows).hasSizeGreaterThan(100)
                .allSatisfy(w -> assertThat(w.getSummary().getQuantiles()).containsKeys("0.5", "0.95", "0.99"));
        assertThat(new StepFigures(run).step(0).load()).containsEntry("users", 400.0);
    }

    @Test
    void theWindowStartsAtLocustsSnapshotNearestTenSecondsBack() {
        // snapshots exist for first ≤ j ≤ t − 2; tried t − 10, t − 11, t − 9, …
        assertThat(LocustCsvWriter.snapshot(0, 30)).isEqualTo(20);
        assertThat(LocustCsvWriter.snapshot(0, 5)).isEqualTo(0); // t − 10 … t − 6 < 0, then t − 5 = 0
        assertThat(LocustCsvWriter.snapshot(3, 6)).isEqualTo(3); // t − 3, tried before t − 2
        assertThat(LocustCsvWriter.snapshot(0, 1)).isEqualTo(-1);
    }
}
