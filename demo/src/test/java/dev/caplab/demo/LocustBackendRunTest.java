package dev.caplab.demo;

import dev.caplab.schema.vocabulary.MetricNames;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryWindow;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Seed 004's Locust percentile table read back from the generated cumulative summaries. */
class LocustBackendRunTest {

    private static final String[] LEVELS = {"0.5", "0.66", "0.75", "0.8", "0.9", "0.95", "0.98", "0.99", "0.999",
            "0.9999", "1.0"};
    // Golden data typed from seed 004's table: percentiles in ms, then # reqs.
    private static final Map<String, double[]> TABLE = Map.of(
            "GET /pepeunit/api/v1/instances", new double[] {11, 14, 17, 19, 28, 44, 82, 110, 260, 550, 550, 9600},
            "GET /pepeunit/api/v1/instances/current",
            new double[] {11, 14, 16, 18, 27, 41, 78, 110, 290, 400, 400, 9697},
            "POST gql:getInstancesRegistries", new double[] {12, 15, 17, 19, 26, 38, 62, 84, 200, 540, 540, 9614},
            "POST gql:getInstancesUrls", new double[] {12, 14, 17, 18, 27, 40, 64, 93, 350, 540, 540, 9686});
    private static final double[] AGGREGATED = {12, 14, 17, 19, 27, 41, 71, 100, 260, 540, 550, 38597};

    private final DemoRun run = TestRuns.byId(DemoRuns.LOCUST_BACKEND);

    private Sample finalRow(String source) {
        return run.samples().stream().filter(s -> s.getSource().equals(source)
                && "stats".equals(s.getLabels().get("csv"))).findFirst().orElseThrow();
    }

    @Test
    void eachEndpointsFinalCumulativeRowIsThePublishedTableExactly() {
        TABLE.forEach((endpoint, row) -> {
            Sample s = finalRow(endpoint);
            assertThat(s.getKind()).isEqualTo(SampleKind.SUMMARY);
            assertThat(s.getSummary().getWindow()).isEqualTo(SummaryWindow.CUMULATIVE);
            assertThat(s.getSummary().getCount()).isEqualTo((long) row[11]);
            assertThat(s.getTimestamp()).isBefore(new StepFigures(run).step(0).end());
            for (int i = 0; i < LEVELS.length; i++) {
                assertThat(s.getSummary().getQuantiles().get(LEVELS[i])).as("%s p%s", endpoint, LEVELS[i])
                        .isEqualTo(row[i]);
            }
        });
    }

    @Test
    void aggregatedRowIsTheUnionOfEndpointsCloseToThePublishedOne() {
        Sample s = finalRow(LocustBackendRun.AGGREGATED);
        assertThat(s.getSummary().getCount()).isEqualTo((long) AGGREGATED[11]);
        // up to p95 the union is the published row; the tail depends on the assumed shape between percentiles
        for (int i = 0; i < LEVELS.length; i++) {
            double tolerance = i <= 5 ? 0 : 0.10 * AGGREGATED[i];
            assertThat(s.getSummary().getQuantiles().get(LEVELS[i])).as("Aggregated p%s", LEVELS[i])
                    .isCloseTo(AGGREGATED[i], within(tolerance));
        }
    }

    @Test
    void historyIsCumulativeEverySecondWithTheUserRamp() {
        List<Sample> history = run.samples().stream()
                .filter(s -> "stats_history".equals(s.getLabels().get("csv"))).toList();
        List<Sample> users = history.stream().filter(s -> s.getMetric().equals(MetricNames.LOCUST_USERS)).toList();
        assertThat(users).hasSize(119);
        assertThat(StepFigures.max(users)).isEqualTo(400);
        Sample full = users.stream().filter(u -> u.getValue() == 400).findFirst().orElseThrow();
        // spawn rate 10/s: 400 users 40 s after start
        assertThat(StepFigures.seconds(run.runStarted().getStartedAt(), full.getTimestamp())).isEqualTo(40);
        List<Sample> summaries = history.stream().filter(s -> s.getKind() == SampleKind.SUMMARY).toList();
        assertThat(summaries).allSatisfy(s -> assertThat(s.getSummary().getWindow())
                .isEqualTo(SummaryWindow.CUMULATIVE));
        for (int i = 1; i < summaries.size(); i++) {
            assertThat(summaries.get(i).getSummary().getCount())
                    .isGreaterThan(summaries.get(i - 1).getSummary().getCount());
        }
        // users wait 1 s between requests: about 400 rps once all are spawned
        List<Sample> rps = history.stream().filter(s -> s.getMetric().equals(MetricNames.HTTP_REQS_PER_S))
                .toList();
        assertThat(StepFigures.median(rps.subList(60, rps.size()))).isCloseTo(400, within(25.0));
        assertThat(new StepFigures(run).step(0).load()).containsEntry("users", 400.0);
    }
}
