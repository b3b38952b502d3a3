package dev.caplab.query.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one sentence that says why a run's steps have a mean latency but no p50/p95/p99 (the tool wrote percentiles
 * since start only), and only then: a step with percentiles, or without any latency, raises none.
 */
class SinceStartPercentilesTest {

    private static final String LOCUST_SENTENCE = "Locust wrote percentiles since start only; run it with "
            + "--csv-full-history for per-step p50/p95/p99. The mean latency per step is exact, from Locust's own totals.";

    @Test
    void aMeanWithoutPercentilesIsExplainedOnce() {
        List<ThroughputStep> steps = List.of(step(0, 19.62, null), step(1, 35.56, null));
        assertThat(ThroughputService.warnings(null, "locust.users", steps, "locust")).containsExactly(LOCUST_SENTENCE);
        assertThat(ThroughputService.warnings(null, "locust.users", steps, "artillery")).singleElement().asString()
                .contains("(artillery)", "since start only", "no step has p50/p95/p99")
                .doesNotContain("--csv-full-history");
    }

    @Test
    void stepsWithPercentilesOrWithoutLatencyRaiseNothing() {
        assertThat(ThroughputService.warnings(null, "locust.users", List.of(step(0, 19.62, 18.0)), "locust")).isEmpty();
        assertThat(ThroughputService.warnings(null, "locust.users", List.of(step(0, null, null)), "locust")).isEmpty();
    }

    private static ThroughputStep step(int index, Double meanMs, Double p50Ms) {
        return new ThroughputStep(index, Map.of("locust.users", 2.0 * (index + 1)), 2.0 * (index + 1), 10.0, 150L,
                0.0, p50Ms, p50Ms == null ? null : p50Ms * 3, p50Ms == null ? null : p50Ms * 5, null, null,
                p50Ms == null ? null : "median of the tool's 15 window percentiles", meanMs,
                meanMs == null ? null : "mean of Locust's own totals over 150 requests");
    }
}
