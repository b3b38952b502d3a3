package dev.caplab.query.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.query.steps.StepAggregateView;
import dev.caplab.query.steps.StepView;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which step aggregates give a step's request rate, error ratio and latency quantiles. */
class TrafficFromAggregatesTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    /** 60 s step with a 10 s warm-up: 50 steady seconds. */
    private static final StepView STEP = new StepView("r", 0, Map.of("users", 5.0), 5.0, T0, T0.plusSeconds(60),
            10_000, true, false, null, null, "", 0);

    @Test
    void requestCountersOfEverySourceAddUpAndFailuresGiveTheErrorRatio() {
        StepTraffic t = TrafficFromAggregates.of(STEP, List.of(counter("gen-1", "http.reqs.count", 30),
                counter("gen-2", "k6_http_reqs_total", 20), counter("gen-1", "http.req.failed.count", 5)));
        assertThat(t.requestsPerSecond()).isEqualTo(50.0);
        assertThat(t.errorRatio()).isCloseTo(0.1, within(1e-12));
        assertThat(t.p95Millis()).isNull();
    }

    @Test
    void withoutCountersPerRequestSamplesOverTheSteadySecondsAreTheRate() {
        // 130 samples of which 10 in the warm-up: 120 requests in 50 steady seconds
        StepTraffic t = TrafficFromAggregates.of(STEP, List.of(latency("client", 130, 10, 80, 200, 350)));
        assertThat(t.requestsPerSecond()).isCloseTo(2.4, within(1e-12));
        assertThat(t.errorRatio()).isNull();
        assertThat(List.of(t.p50Millis(), t.p95Millis(), t.p99Millis())).containsExactly(80.0, 200.0, 350.0);
    }

    @Test
    void latencyQuantilesComeFromTheBusiestSourceNeverAnAverage() {
        StepTraffic t = TrafficFromAggregates.of(STEP, List.of(latency("small", 10, 0, 1, 2, 3),
                latency("big", 1000, 0, 50, 90, 120)));
        assertThat(t.latencySource()).isEqualTo("big");
        assertThat(t.p95Millis()).isEqualTo(90.0);
    }

    @Test
    void aToolsOwnRateGaugeIsTheLastResortAndOtherMetricsAreNotTraffic() {
        StepAggregateView rate = new StepAggregateView("r", 0, 5.0, "locust", "http.reqs.per_s", "GAUGE", 50, 0, 42,
                60, 40, 10, 60, null, null, null, null, null, null, false, T0, T0.plusSeconds(60), 0);
        assertThat(TrafficFromAggregates.of(STEP, List.of(rate)).requestsPerSecond()).isEqualTo(42.0);
        StepTraffic none = TrafficFromAggregates.of(STEP, List.of(counter("host", "net.tx.bytes", 1e6)));
        assertThat(none.measured()).isFalse();
    }

    private static StepAggregateView counter(String source, String metric, double perSecond) {
        return new StepAggregateView("r", 0, 5.0, source, metric, "COUNTER", 60, 10, perSecond, perSecond,
                perSecond, perSecond, perSecond, null, null, null, null, perSecond, null, false, T0,
                T0.plusSeconds(60), 0);
    }

    private static StepAggregateView latency(String source, long count, long warmup, double p50, double p95,
                                             double p99) {
        return new StepAggregateView("r", 0, 5.0, source, "http_req_duration", "GAUGE", count, warmup, p50, p99,
                p50, 1, p99, p50, null, p95, p99, null, null, false, T0, T0.plusSeconds(60), 0);
    }
}
