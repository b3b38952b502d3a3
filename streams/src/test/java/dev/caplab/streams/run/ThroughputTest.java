package dev.caplab.streams.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.analysis.throughput.TrafficMetrics;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.Events;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.aggregate.QuantileSketch;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stepped run whose request rate grows 4/s per user up to 50 users and stays at 200/s beyond, one latency sample per
 * request (as Locust's plugin sends them), every 10th request failed, and a load generator sampling its own CPU. The
 * expectations are computed here from the generated requests, not by caplab's code.
 */
class ThroughputTest {

    private static final String RUN = "run-throughput";
    private static final int STEPS = 8;
    private static final int STEP_SECONDS = 30;
    private static final int WARMUP_SECONDS = 5;
    private static final double KNEE_USERS = 50;

    @TempDir
    Path stateDir;

    private static double users(int step) {
        return 10.0 * (step + 1);
    }

    /** Planned requests per second: ±2 % alternating so the fit's residual variance is not zero. */
    private static double plannedRate(int step) {
        return 4 * Math.min(users(step), KNEE_USERS) * (step % 2 == 0 ? 1.02 : 0.98);
    }

    /** What the test sent in each step's steady seconds: latencies and failures. */
    private record Sent(List<Double> steadyLatencies, int steadyFailures) {
    }

    @Test
    void perStepRateErrorsAndPercentilesAndTheThroughputLimit() {
        Map<Integer, Sent> sent = new HashMap<>();
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults(), stateDir)) {
            t.lifecycle(RUN, Events.runStarted(RUN, "users", List.of(), 4));
            Random random = new Random(42);
            int request = 0;
            for (int step = 0; step < STEPS; step++) {
                double start = 10 + step * STEP_SECONDS;
                t.lifecycle(RUN, Events.stepStarted(RUN, step, Map.of("users", users(step)), start, WARMUP_SECONDS));
                List<Double> steady = new ArrayList<>();
                int steadyFailures = 0;
                for (int k = 0; k < STEP_SECONDS; k++) {
                    List<Sample> batch = new ArrayList<>();
                    // requests in second k: floor(R(k+1)) − floor(Rk), so the steady seconds hold R per second
                    int n = (int) (Math.floor(plannedRate(step) * (k + 1)) - Math.floor(plannedRate(step) * k));
                    for (int r = 0; r < n; r++) {
                        double latencyMs = Math.exp(3 + 0.8 * random.nextGaussian()) * (1 + step * 0.2);
                        boolean failed = ++request % 10 == 0;
                        batch.add(Events.sample("locust", "http.req.duration.ms", SampleKind.GAUGE,
                                start + k + (r + 0.5) / n, latencyMs,
                                Map.of("name", "/", "success", failed ? "false" : "true")));
                        if (k >= WARMUP_SECONDS) {
                            steady.add(latencyMs);
                            steadyFailures += failed ? 1 : 0;
                        }
                    }
                    batch.add(Events.sample("loadgen-host", "cpu.util.percent", SampleKind.GAUGE, start + k + 0.5,
                            20 + users(step), Map.of(LabelNames.ROLE, TrafficMetrics.LOADGEN_ROLE)));
                    t.samples(RUN, batch);
                }
                sent.put(step, new Sent(steady, steadyFailures));
                t.lifecycle(RUN, Events.stepEnded(RUN, step, start + STEP_SECONDS));
            }
            t.lifecycle(RUN, Events.runEnded(RUN, 10 + STEPS * STEP_SECONDS));
            t.advanceWallClock(Duration.ofSeconds(31));

            Map<String, StepAggregate> newest = t.newestAggregates(MetricNames.THROUGHPUT_SOURCE);
            for (int step = 0; step < STEPS; step++) {
                Sent s = sent.get(step);
                int requests = s.steadyLatencies().size();
                StepAggregate rate = newest.get(step + "|" + MetricNames.THROUGHPUT_REQUESTS_PER_S);
                assertThat(rate.getSustained()).as("step %d requests/s", step)
                        .isCloseTo(requests / (double) (STEP_SECONDS - WARMUP_SECONDS), within(1e-9));
                assertThat(rate.getCount()).isEqualTo(requests);
                StepAggregate errors = newest.get(step + "|" + MetricNames.THROUGHPUT_ERRORS_RATIO);
                assertThat(errors.getSustained()).as("step %d error ratio", step)
                        .isCloseTo(s.steadyFailures() / (double) requests, within(1e-12));

                double[] sorted = s.steadyLatencies().stream().mapToDouble(Double::doubleValue).sorted().toArray();
                StepAggregate latency = newest.get(step + "|" + MetricNames.THROUGHPUT_LATENCY_MS);
                for (String q : List.of("0.5", "0.95", "0.99")) {
                    // the order statistic DDSketch estimates: rank floor(q·(n−1)) of the sorted values
                    double exact = sorted[(int) Math.floor(Double.parseDouble(q) * (sorted.length - 1))];
                    assertThat(latency.getQuantiles().get(q)).as("step %d p%s", step, q)
                            .isCloseTo(exact, within(exact * QuantileSketch.RELATIVE_ACCURACY));
                }
                assertThat(latency.getMax()).isEqualTo(sorted[sorted.length - 1]);
                assertThat(newest.get(step + "|" + MetricNames.THROUGHPUT_LOADGEN_CPU_UTIL_PERCENT).getSustained())
                        .isCloseTo(20 + users(step), within(1e-9));
            }

            CapacityFit throughput = t.fits.readValuesToList().stream()
                    .filter(f -> f.getSource().equals(MetricNames.THROUGHPUT_SOURCE)
                            && f.getMetric().equals(MetricNames.THROUGHPUT_REQUESTS_PER_S))
                    .reduce((a, b) -> b).orElseThrow();
            assertThat(throughput.getStepsUsed()).isEqualTo(STEPS);
            assertThat(throughput.getBottleneck()).as("a request rate has no ceiling: never the bottleneck").isFalse();
            var knee = throughput.getBreakpoints().getFirst();
            assertThat(knee.getLower95()).isLessThanOrEqualTo(KNEE_USERS);
            assertThat(knee.getUpper95()).isGreaterThanOrEqualTo(KNEE_USERS);
            assertThat(throughput.getSegments().getLast().getSlope()).as("flat after the knee")
                    .isCloseTo(0, within(0.3));
            assertThat(Arrays.stream(new double[] {throughput.getBreakpointPValue()})).allMatch(p -> p < 0.05);

            // the request rate is fitted, but it is no resource: the run conclusion neither estimates nor names it
            RunConclusion conclusion = t.conclusions.readValuesToList().getLast();
            assertThat(conclusion.getResources()).as("resource estimates of the conclusion")
                    .noneMatch(e -> e.getSource().equals(MetricNames.THROUGHPUT_SOURCE));
            assertThat(conclusion.getBottleneck()).isNull();
            // but the conclusion carries its throughput limit: the knee at 50 users within its interval, the plateau
            // 4·50 = 200/s (±2 % jitter), and the generator (CPU 20 + users %) first at 90 % at 70 users, past the knee
            var limit = conclusion.getThroughputLimit();
            assertThat(limit).as("the conclusion's throughput limit").isNotNull();
            assertThat(limit.getKneeLower95()).isLessThanOrEqualTo(KNEE_USERS);
            assertThat(limit.getKneeUpper95()).isGreaterThanOrEqualTo(KNEE_USERS);
            assertThat(limit.getPlateauRatePerSecond()).isCloseTo(4 * KNEE_USERS, within(0.02 * 4 * KNEE_USERS));
            assertThat(limit.getStepsUsed()).isEqualTo(STEPS);
            assertThat(limit.getGeneratorSaturatedAtX()).isEqualTo(70.0);
            assertThat(limit.getGeneratorCpuPercent()).isCloseTo(20 + 70, within(1e-9));
        }
    }
}
