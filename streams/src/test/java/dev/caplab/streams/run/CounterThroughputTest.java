package dev.caplab.streams.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.analysis.throughput.TrafficMetrics;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.Events;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.TopologySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The counter-based request path, as k6's Prometheus remote write ({@code k6_http_reqs_total} per name, status and
 * {@code expected_response}) and OpenTelemetry ({@code http.server.request.duration.count} per route and status)
 * send it: one cumulative series per label set, sampled once a second. Every series is a different set of requests,
 * so a step's requests/s is the sum of their increases over the steady part divided by its seconds, and the failed
 * share is that of the {@code expected_response=false} series. The expectations are the test's arithmetic.
 */
class CounterThroughputTest {

    private static final String RUN = "run-counters";
    private static final int STEPS = 2;
    private static final int STEP_SECONDS = 20;
    private static final int WARMUP_SECONDS = 5;

    @TempDir
    Path stateDir;

    @ParameterizedTest
    @ValueSource(strings = {MetricNames.K6_HTTP_REQS_TOTAL, MetricNames.OTEL_HTTP_SERVER_REQUEST_DURATION_COUNT})
    void perSeriesCountersAddUp(String metric) {
        boolean k6 = metric.equals(MetricNames.K6_HTTP_REQS_TOTAL);
        List<Map<String, String>> series = k6
                ? List.of(Map.of("name", "/a", "status", "200", "expected_response", "true"),
                        Map.of("name", "/a", "status", "503", "expected_response", "false"),
                        Map.of("name", "/b", "status", "200", "expected_response", "true"))
                : List.of(Map.of("http.route", "/a", "http.response.status_code", "200"),
                        Map.of("http.route", "/b", "http.response.status_code", "200"));
        Map<Integer, Double> expectedRate = new HashMap<>();
        Map<Integer, Double> expectedErrors = new HashMap<>();
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults(), stateDir)) {
            t.lifecycle(RUN, Events.runStarted(RUN, "vus", List.of(), 4));
            long[] totals = new long[series.size()];
            for (int step = 0; step < STEPS; step++) {
                double start = 10 + step * STEP_SECONDS;
                t.lifecycle(RUN, Events.stepStarted(RUN, step, Map.of("vus", 10.0 * (step + 1)), start,
                        WARMUP_SECONDS));
                long steadyRequests = 0;
                long steadyFailures = 0;
                for (int k = 0; k < STEP_SECONDS; k++) {
                    List<Sample> batch = new ArrayList<>();
                    for (int s = 0; s < series.size(); s++) {
                        long increase = (s + 1) * 4L * (step + 1) + (k % (s + 2));
                        totals[s] += increase;
                        // a reading's increase counts where the reading is: in the steady part from its start on
                        if (k >= WARMUP_SECONDS) {
                            steadyRequests += increase;
                            steadyFailures += TrafficMetrics.failed(series.get(s)) ? increase : 0;
                        }
                        batch.add(Events.sample("k6", metric, SampleKind.COUNTER, start + k, totals[s],
                                series.get(s)));
                    }
                    t.samples(RUN, batch);
                }
                // from the last warm-up reading (start + WARMUP - 1) to the last reading (start + STEP - 1)
                double steadySeconds = STEP_SECONDS - WARMUP_SECONDS;
                expectedRate.put(step, steadyRequests / steadySeconds);
                expectedErrors.put(step, steadyFailures / (double) steadyRequests);
                t.lifecycle(RUN, Events.stepEnded(RUN, step, start + STEP_SECONDS));
            }
            t.lifecycle(RUN, Events.runEnded(RUN, 10 + STEPS * STEP_SECONDS));
            t.advanceWallClock(Duration.ofSeconds(31));

            Map<String, StepAggregate> newest = t.newestAggregates(MetricNames.THROUGHPUT_SOURCE);
            for (int step = 0; step < STEPS; step++) {
                assertThat(newest.get(step + "|" + MetricNames.THROUGHPUT_REQUESTS_PER_S).getSustained())
                        .as("%s step %d requests/s", metric, step).isCloseTo(expectedRate.get(step), within(1e-9));
                assertThat(newest.get(step + "|" + MetricNames.THROUGHPUT_ERRORS_RATIO).getSustained())
                        .as("%s step %d error ratio", metric, step)
                        .isCloseTo(expectedErrors.get(step), within(1e-12));
            }
        }
    }

    @Test
    void anUnnamedTotalBesideNamedSeriesIsCountedAlone() {
        // k6 and OTLP may send the overall counter beside the per-name ones: the named ones are its breakdown
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults(), stateDir)) {
            t.lifecycle(RUN, Events.runStarted(RUN, "vus", List.of(), 4));
            t.lifecycle(RUN, Events.stepStarted(RUN, 0, Map.of("vus", 10.0), 10, WARMUP_SECONDS));
            long a = 0;
            long b = 0;
            long atSteadyStart = -1;
            for (int k = 0; k < STEP_SECONDS; k++) {
                a += 6;
                b += 3 + k % 2;
                if (k == WARMUP_SECONDS - 1) {
                    atSteadyStart = a + b; // the last reading before the steady part
                }
                t.samples(RUN, List.of(
                        Events.sample("k6", MetricNames.K6_HTTP_REQS_TOTAL, SampleKind.COUNTER, 10 + k, a,
                                Map.of("name", "/a")),
                        Events.sample("k6", MetricNames.K6_HTTP_REQS_TOTAL, SampleKind.COUNTER, 10 + k, b,
                                Map.of("name", "/b")),
                        Events.sample("k6", MetricNames.K6_HTTP_REQS_TOTAL, SampleKind.COUNTER, 10 + k, a + b,
                                Map.of())));
            }
            t.lifecycle(RUN, Events.stepEnded(RUN, 0, 10 + STEP_SECONDS));
            t.lifecycle(RUN, Events.runEnded(RUN, 10 + STEP_SECONDS));
            t.advanceWallClock(Duration.ofSeconds(31));
            double expected = (a + b - atSteadyStart) / (double) (STEP_SECONDS - WARMUP_SECONDS);
            StepAggregate rate = t.aggregates.readValuesToList().stream()
                    .filter(x -> x.getSource().equals(MetricNames.THROUGHPUT_SOURCE)
                            && x.getMetric().equals(MetricNames.THROUGHPUT_REQUESTS_PER_S))
                    .reduce((x, y) -> y.getVersion() >= x.getVersion() ? y : x).orElseThrow();
            assertThat(rate.getSustained()).isCloseTo(expected, within(1e-9));
        }
    }

    /**
     * Two declared steps without warm-up, 80 then 160 users from 30 s; k6-style counters read once a second, either
     * on the second (a reading at the very instant of the change) or at half past (readings straddle it). The only
     * 503 is first reported by the first reading at 160 users. A reading's increase belongs to the step holding the
     * reading, so the 160-user step's increase runs from the 80-user step's last reading: that step's requests/s is
     * the tool's counter delta over it, and the 503 is in its error ratio, never in the 80-user step's.
     */
    @ParameterizedTest
    @ValueSource(doubles = {0.0, 0.5})
    void aCounterIncreaseBelongsToTheStepOfTheReadingThatReportsIt(double offsetSeconds) {
        Map<String, String> ok = Map.of("name", "/a", "status", "200", "expected_response", "true");
        Map<String, String> failed = Map.of("name", "/a", "status", "503", "expected_response", "false");
        int perStep = 20;
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults(), stateDir)) {
            t.lifecycle(RUN, Events.runStarted(RUN, "users", List.of(), 4));
            t.lifecycle(RUN, Events.stepStarted(RUN, 0, Map.of("users", 80.0), 10, 0));
            t.lifecycle(RUN, Events.stepEnded(RUN, 0, 30));
            t.lifecycle(RUN, Events.stepStarted(RUN, 1, Map.of("users", 160.0), 30, 0));
            t.lifecycle(RUN, Events.stepEnded(RUN, 1, 50));
            long okTotal = 0;
            long failedTotal = 0;
            double[] at = new double[2 * perStep];
            long[] total = new long[2 * perStep];
            for (int k = 0; k < 2 * perStep; k++) {
                boolean high = k >= perStep;
                okTotal += k == 0 ? 0 : high ? 16 : 8;
                failedTotal += k == perStep ? 1 : 0;
                at[k] = 10 + k + offsetSeconds;
                total[k] = okTotal + failedTotal;
                t.samples(RUN, List.of(
                        Events.sample("k6", MetricNames.K6_HTTP_REQS_TOTAL, SampleKind.COUNTER, at[k], okTotal, ok),
                        Events.sample("k6", MetricNames.K6_HTTP_REQS_TOTAL, SampleKind.COUNTER, at[k], failedTotal,
                                failed)));
            }
            t.lifecycle(RUN, Events.runEnded(RUN, 50));
            t.advanceWallClock(Duration.ofSeconds(31));

            Map<String, StepAggregate> newest = t.newestAggregates(MetricNames.THROUGHPUT_SOURCE);
            int lastLow = perStep - 1;
            int lastHigh = 2 * perStep - 1;
            // 80 users: from its own first reading (nothing before it) to its last
            assertThat(newest.get("0|" + MetricNames.THROUGHPUT_REQUESTS_PER_S).getSustained())
                    .isCloseTo((total[lastLow] - total[0]) / (at[lastLow] - at[0]), within(1e-9));
            assertThat(newest.get("0|" + MetricNames.THROUGHPUT_ERRORS_RATIO).getSustained()).isZero();
            // 160 users: from the 80-user step's last reading to its own last: 20 × 16 + the one 503 in 20 s
            double highRequests = total[lastHigh] - total[lastLow];
            assertThat(highRequests).isEqualTo(20 * 16 + 1);
            assertThat(newest.get("1|" + MetricNames.THROUGHPUT_REQUESTS_PER_S).getSustained())
                    .isCloseTo(highRequests / (at[lastHigh] - at[lastLow]), within(1e-9));
            assertThat(newest.get("1|" + MetricNames.THROUGHPUT_ERRORS_RATIO).getSustained())
                    .isCloseTo(1 / highRequests, within(1e-12));
            assertThat(newest.get("1|" + MetricNames.THROUGHPUT_REQUESTS_PER_S).getCount())
                    .as("requests counted in the 160-user step").isEqualTo(20 * 16 + 1);
        }
    }
}
