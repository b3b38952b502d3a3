package dev.caplab.streams.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.SummaryStats;
import dev.caplab.schema.event.SummaryWindow;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.Events;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.TopologySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tool that writes a total row beside its per-endpoint rows, as Locust's history does once a second: the counters
 * of {@code GET /a}, {@code POST /b} and {@code Aggregated} (their sum), and each row's window percentiles. A step's
 * requests/s must be the total's own increase over the steady part, not the sum of all three rows, and its latency
 * the median of the total row's window percentiles. The expectations are the test's arithmetic on what it sent.
 */
class CountedOnceTest {

    private static final String RUN = "run-counted-once";
    private static final String SOURCE = "locust";
    private static final int STEPS = 3;
    private static final int STEP_SECONDS = 20;
    private static final int WARMUP_SECONDS = 4;
    private static final Map<String, String> A = Map.of("name", "/a", "method", "GET");
    private static final Map<String, String> B = Map.of("name", "/b", "method", "POST");
    private static final Map<String, String> TOTAL = Map.of("name", "Aggregated");

    @TempDir
    Path stateDir;

    @Test
    void theTotalRowIsCountedAloneAndItsWindowPercentilesAreTheStepsMedian() {
        Map<Integer, double[]> expectedRate = new HashMap<>();
        Map<Integer, double[]> totalP95s = new HashMap<>();
        Map<Integer, Double> failureRatio = new HashMap<>();
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults(), stateDir)) {
            t.lifecycle(RUN, Events.runStarted(RUN, "users", List.of(), 4));
            long a = 0;
            long b = 0;
            long failed = 0;
            for (int step = 0; step < STEPS; step++) {
                double start = 10 + step * STEP_SECONDS;
                t.lifecycle(RUN, Events.stepStarted(RUN, step, Map.of("users", 10.0 * (step + 1)), start,
                        WARMUP_SECONDS));
                long totalAtSteadyStart = -1;
                long failedAtSteadyStart = -1;
                long totalNow = 0;
                List<Double> p95s = new ArrayList<>();
                for (int k = 0; k < STEP_SECONDS; k++) {
                    // one history row group a second, at the whole second, like Locust's
                    a += 7L * (step + 1) + k % 3;
                    b += 3L * (step + 1);
                    failed += k % 5 == 0 ? 1 : 0;
                    totalNow = a + b;
                    double p95a = 40 + 10 * step + k;
                    double p95b = 400 + 10 * step + k;
                    double p95total = 120 + 15 * step + (k * 7) % 11;
                    double at = start + k;
                    List<Sample> rows = new ArrayList<>();
                    rows.addAll(row(at, A, a, 0, p95a));
                    rows.addAll(row(at, B, b, failed, p95b));
                    rows.addAll(row(at, TOTAL, totalNow, failed, p95total));
                    t.samples(RUN, rows);
                    if (k == WARMUP_SECONDS - 1) {
                        // the last warm-up reading: the steady part's increase runs from it
                        totalAtSteadyStart = totalNow;
                        failedAtSteadyStart = failed;
                    }
                    if (k >= WARMUP_SECONDS) {
                        p95s.add(p95total);
                    }
                }
                double steadySeconds = STEP_SECONDS - WARMUP_SECONDS;
                expectedRate.put(step, new double[] {(totalNow - totalAtSteadyStart) / steadySeconds});
                failureRatio.put(step, (failed - failedAtSteadyStart) / (double) (totalNow - totalAtSteadyStart));
                totalP95s.put(step, p95s.stream().mapToDouble(Double::doubleValue).toArray());
                t.lifecycle(RUN, Events.stepEnded(RUN, step, start + STEP_SECONDS));
            }
            t.lifecycle(RUN, Events.runEnded(RUN, 10 + STEPS * STEP_SECONDS));
            t.advanceWallClock(Duration.ofSeconds(31));

            Map<String, StepAggregate> newest = newest(t);
            for (int step = 0; step < STEPS; step++) {
                String throughput = step + "|" + MetricNames.THROUGHPUT_SOURCE + "|";
                assertThat(newest.get(throughput + MetricNames.THROUGHPUT_REQUESTS_PER_S).getSustained())
                        .as("step %d requests/s: the Aggregated row's increase alone", step)
                        .isCloseTo(expectedRate.get(step)[0], within(1e-9));
                assertThat(newest.get(throughput + MetricNames.THROUGHPUT_ERRORS_RATIO).getSustained())
                        .as("step %d error ratio", step).isCloseTo(failureRatio.get(step), within(1e-9));
                // the source's own counter series: the total row, not total + endpoints
                assertThat(newest.get(step + "|" + SOURCE + "|" + MetricNames.HTTP_REQS_COUNT).getRatePerSecond())
                        .as("step %d %s rate", step, MetricNames.HTTP_REQS_COUNT)
                        .isCloseTo(expectedRate.get(step)[0], within(1e-9));

                double[] p95s = totalP95s.get(step).clone();
                Arrays.sort(p95s);
                double median = p95s.length % 2 == 1 ? p95s[p95s.length / 2]
                        : (p95s[p95s.length / 2 - 1] + p95s[p95s.length / 2]) / 2;
                StepAggregate latency = newest.get(throughput + MetricNames.THROUGHPUT_LATENCY_WINDOW_MEDIAN_MS);
                assertThat(latency.getQuantiles().get("0.95")).as("step %d p95: median of the total's windows", step)
                        .isEqualTo(median);
                assertThat(latency.getCount()).as("windows combined").isEqualTo(p95s.length);
                assertThat(newest.get(step + "|" + SOURCE + "|" + MetricNames.HTTP_DURATION_MS).getQuantiles()
                        .get("0.95")).as("the verdicts' view of the same step").isEqualTo(median);
            }
        }
    }

    /**
     * JMeter's InfluxDB backend listener, as ingest maps it: per one-second window, a row per transaction and outcome
     * ({@code statut} all, ok, ko), an error row per response code, and the total row ({@code transaction=all}) with
     * the window's count, countError and percentiles. Requests/s is the total row's counts over the steady windows
     * divided by the steady seconds, failures its countError; one window of step 1 had only failures, so its total
     * row carried no latency (a bare {@code http.reqs.window.count}). Expectations are arithmetic on what was sent.
     */
    @Test
    void theJmeterListenersTotalRowCountsEachRequestOnce() {
        String run = "run-jmeter-listener";
        Map<Integer, Double> expectedRate = new HashMap<>();
        Map<Integer, Double> expectedErrors = new HashMap<>();
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults(), stateDir)) {
            t.lifecycle(run, Events.runStarted(run, "threads", List.of(), 4));
            for (int step = 0; step < 2; step++) {
                double start = 10 + step * STEP_SECONDS;
                t.lifecycle(run, Events.stepStarted(run, step, Map.of("threads", 4.0 * (step + 1)), start,
                        WARMUP_SECONDS));
                long requests = 0;
                long failures = 0;
                for (int k = 0; k < STEP_SECONDS; k++) {
                    double at = start + k + 0.25;
                    long a = 20L * (step + 1) + k % 4;
                    long b = 10L * (step + 1) + k % 3;
                    long bad = k % 5 == 0 ? 3 : 0;
                    List<Sample> rows = new ArrayList<>();
                    if (step == 1 && k == 10) {
                        a = 0;
                        b = 4;
                        bad = 4;
                        rows.add(jmeter(MetricNames.HTTP_REQS_WINDOW_COUNT, SampleKind.GAUGE, at, b, "all", "all"));
                    } else {
                        rows.add(listenerWindow(at, "GET /a", "all", a, 20 + k));
                        rows.add(listenerWindow(at, "GET /a", "ok", a, 20 + k));
                        rows.add(listenerWindow(at, "all", "all", a + b, 30 + k));
                    }
                    rows.add(listenerWindow(at, "GET /b", "all", b, 40 + k));
                    if (b - bad > 0) {
                        rows.add(listenerWindow(at, "GET /b", "ok", b - bad, 40 + k));
                    }
                    if (bad > 0) {
                        rows.add(listenerWindow(at, "GET /b", "ko", bad, 90));
                        Sample errorRow = jmeter(MetricNames.HTTP_FAILED_WINDOW_COUNT, SampleKind.GAUGE, at, bad,
                                "GET /b", null);
                        Map<String, String> coded = new LinkedHashMap<>(errorRow.getLabels());
                        coded.put("responseCode", "500");
                        errorRow.setLabels(coded);
                        rows.add(errorRow);
                    }
                    rows.add(jmeter(MetricNames.HTTP_FAILED_WINDOW_COUNT, SampleKind.GAUGE, at, bad, "all", "all"));
                    t.samples(run, rows);
                    if (k >= WARMUP_SECONDS) {
                        requests += a + b;
                        failures += bad;
                    }
                }
                expectedRate.put(step, requests / (double) (STEP_SECONDS - WARMUP_SECONDS));
                expectedErrors.put(step, failures / (double) requests);
                t.lifecycle(run, Events.stepEnded(run, step, start + STEP_SECONDS));
            }
            t.lifecycle(run, Events.runEnded(run, 10 + 2 * STEP_SECONDS));
            t.advanceWallClock(Duration.ofSeconds(31));

            Map<String, StepAggregate> newest = newest(t);
            for (int step = 0; step < 2; step++) {
                String throughput = step + "|" + MetricNames.THROUGHPUT_SOURCE + "|";
                assertThat(newest.get(throughput + MetricNames.THROUGHPUT_REQUESTS_PER_S)).as("step %d", step)
                        .isNotNull();
                assertThat(newest.get(throughput + MetricNames.THROUGHPUT_REQUESTS_PER_S).getSustained())
                        .as("step %d requests/s: the total row's window counts alone", step)
                        .isCloseTo(expectedRate.get(step), within(1e-9));
                assertThat(newest.get(throughput + MetricNames.THROUGHPUT_ERRORS_RATIO).getSustained())
                        .as("step %d error ratio: the total row's countError", step)
                        .isCloseTo(expectedErrors.get(step), within(1e-9));
            }
        }
    }

    /** The newest aggregate of each step, source and metric, keyed {@code step|source|metric}. */
    private static Map<String, StepAggregate> newest(TopologyFixture t) {
        Map<String, StepAggregate> newest = new HashMap<>();
        for (StepAggregate x : t.aggregates.readValuesToList()) {
            newest.merge(x.getStepIndex() + "|" + x.getSource() + "|" + x.getMetric(), x,
                    (p, q) -> q.getVersion() >= p.getVersion() ? q : p);
        }
        return newest;
    }

    /** A listener row of one transaction and outcome as ingest writes it: a WINDOW summary of its count. */
    private static Sample listenerWindow(double at, String transaction, String outcome, long count, double p95) {
        Sample s = jmeter(MetricNames.HTTP_DURATION_MS, SampleKind.SUMMARY, at, p95 / 2, transaction, outcome);
        s.setSummary(SummaryStats.newBuilder().setWindow(SummaryWindow.WINDOW).setCount(count).setMean(p95 / 2)
                .setQuantiles(Map.of("0.95", p95)).build());
        return s;
    }

    private static Sample jmeter(String metric, SampleKind kind, double at, double value, String transaction,
            String outcome) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("aggregation", "jmeter-backend-listener");
        labels.put("application", "shop");
        labels.put("transaction", transaction);
        labels.put("name", transaction);
        if (outcome != null) {
            labels.put("statut", outcome);
        }
        labels.put("window", "window");
        return Events.sample("jmeter", metric, kind, at, value, labels);
    }

    /** One Locust history row: its request and failure counters and its window p95 (and a p50 a tenth of it). */
    private static List<Sample> row(double at, Map<String, String> labels, long requests, long failures, double p95) {
        Map<String, Double> quantiles = new LinkedHashMap<>();
        quantiles.put("0.5", p95 / 10);
        quantiles.put("0.95", p95);
        SummaryStats window = SummaryStats.newBuilder().setWindow(SummaryWindow.WINDOW).setWindowMicros(10_000_000L)
                .setCount(0).setQuantiles(quantiles).build();
        Map<String, String> windowLabels = new LinkedHashMap<>(labels);
        windowLabels.put("window", "window");
        Sample summary = Events.sample(SOURCE, MetricNames.HTTP_DURATION_MS, SampleKind.SUMMARY, at, p95 / 10,
                windowLabels);
        summary.setSummary(window);
        return List.of(Events.sample(SOURCE, MetricNames.HTTP_REQS_COUNT, SampleKind.COUNTER, at, requests, labels),
                Events.sample(SOURCE, MetricNames.HTTP_FAILED_COUNT, SampleKind.COUNTER, at, failures, labels),
                summary);
    }
}
