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
                        // the increase to a point counts in the steady part when the point before it is in it
                        if (k > WARMUP_SECONDS) {
                            steadyRequests += increase;
                            steadyFailures += TrafficMetrics.failed(series.get(s)) ? increase : 0;
                        }
                        batch.add(Events.sample("k6", metric, SampleKind.COUNTER, start + k, totals[s],
                                series.get(s)));
                    }
                    t.samples(RUN, batch);
                }
                double steadySeconds = STEP_SECONDS - 1 - WARMUP_SECONDS;
                expectedRate.put(step, steadyRequests / steadySeconds);
                expectedErrors.put(step, steadyFailures / (double) steadyRequests);
                t.lifecycle(RUN, Events.stepEnded(RUN, step, start + STEP_SECONDS));
            }
            t.lifecycle(RUN, Events.runEnded(RUN, 10 + STEPS * STEP_SECONDS));
            t.advanceWallClock(Duration.ofSeconds(31));

            Map<String, StepAggregate> newest = t.newestAggregates(TrafficMetrics.SOURCE);
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
                if (k == WARMUP_SECONDS) {
                    atSteadyStart = a + b;
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
            double expected = (a + b - atSteadyStart) / (double) (STEP_SECONDS - 1 - WARMUP_SECONDS);
            StepAggregate rate = t.aggregates.readValuesToList().stream()
                    .filter(x -> x.getSource().equals(TrafficMetrics.SOURCE)
                            && x.getMetric().equals(MetricNames.THROUGHPUT_REQUESTS_PER_S))
                    .reduce((x, y) -> y.getVersion() >= x.getVersion() ? y : x).orElseThrow();
            assertThat(rate.getSustained()).isCloseTo(expected, within(1e-9));
        }
    }
}
