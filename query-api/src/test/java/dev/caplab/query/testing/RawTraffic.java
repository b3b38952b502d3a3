package dev.caplab.query.testing;

import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunThroughputLimit;
import dev.caplab.analysis.throughput.TrafficMetrics;
import dev.caplab.schema.event.Environment;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunOrigin;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.RunStatus;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.event.SummaryStats;
import dev.caplab.schema.event.SummaryWindow;
import dev.caplab.schema.event.SystemUnderTest;
import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.TopologySettings;
import dev.caplab.sink.RowMapping;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * A load tool's traffic for one run as raw readings, one a second, shaped as caplab's Locust adapter reads Locust's
 * history with {@code --csv-full-history}: the cumulative request and failure counters of two endpoints and of the
 * Aggregated row (the same requests again), the Aggregated row's window percentiles, and the load generator's CPU
 * ({@code role=loadgen}). The production topology ({@link CaplabTopology} on a TopologyTestDriver) derives the
 * per-step throughput and the request rate's fit from them, and those rows are stored through the sink's
 * {@link RowMapping}. Tests compute what a step must show from {@link #readings} with their own arithmetic, never
 * from the stored rows.
 *
 * <p>Per step the counters grow by about min(20·x, 3000) requests a second (±2 % per step, ±1 a second), 2 % of
 * them failing beyond x = 150; the window p50 is 20 + 0.1·x ms (±1 ms a second), p95 twice and p99 three times
 * that; the generator's CPU is 40 + 0.3·x %.
 */
public final class RawTraffic {

    /** The steps' loads (viewers), {@value #STEP_SECONDS} s each, the first {@value #WARMUP_SECONDS} s warm-up. */
    public static final double[] XS = {12, 25, 50, 75, 100, 150, 200, 250, 300};
    public static final int STEP_SECONDS = 30;
    public static final int WARMUP_SECONDS = 10;
    public static final String LOAD = "viewers";
    private static final String TOOL = "locust";
    private static final String GENERATOR = "loadgen-host";

    /** One second's readings: the Aggregated row's totals and window percentiles, and the generator's CPU. */
    public record Reading(Instant at, int step, long requests, long failures, double p50Ms, double p95Ms,
            double p99Ms, double generatorCpuPercent) {
    }

    private RawTraffic() {
    }

    /** Step {@code i}'s start: the run's start plus {@code i} steps. */
    public static Instant stepStart(Instant runStart, int i) {
        return runStart.plusSeconds((long) STEP_SECONDS * i);
    }

    /** Every reading of the run, in time order; a reading at the instant of a step change belongs to the new step. */
    public static List<Reading> readings(Instant runStart) {
        List<Reading> out = new ArrayList<>();
        long requests = 0;
        long failures = 0;
        for (int i = 0; i < XS.length; i++) {
            double x = XS[i];
            long base = Math.round(Math.min(20 * x, 3000) * (1 + 0.01 * ((7 * i) % 5 - 2)));
            for (int k = 0; k < STEP_SECONDS; k++) {
                long increase = base + k % 3 - 1;
                requests += increase;
                failures += x <= 150 ? 0 : Math.round(0.02 * increase);
                double p50 = 20 + 0.1 * x + k % 3 - 1;
                out.add(new Reading(stepStart(runStart, i).plusSeconds(k), i, requests, failures, p50, 2 * p50,
                        3 * p50, 40 + 0.3 * x));
            }
        }
        return out;
    }

    /**
     * Derives the run's throughput from its readings with the production topology and stores it; returns the
     * throughput limit the topology concluded (null: none), for the run's conclusion.
     */
    public static RunThroughputLimit write(DataSource ds, String runId, Instant runStart) {
        try (TopologyFeed feed = new TopologyFeed(TopologySettings.defaults())) {
            feed.lifecycle(runId, RunStarted.newBuilder().setRunId(runId).setStartedAt(runStart)
                    .setSut(SystemUnderTest.newBuilder().setName("mmx-standalone").build())
                    .setEnvironment(Environment.newBuilder().setProvider("aws-lightsail").setVcpu(2.0).build())
                    .setTool(TOOL).setSloRules(List.of()).setLoadExpression(LOAD).setOrigin(RunOrigin.DECLARED)
                    .build());
            List<Reading> all = readings(runStart);
            for (int i = 0; i < XS.length; i++) {
                int step = i;
                feed.lifecycle(runId, StepStarted.newBuilder().setRunId(runId).setStepIndex(i)
                        .setLoad(Map.of(LOAD, XS[i])).setStartedAt(stepStart(runStart, i))
                        .setWarmupMicros(WARMUP_SECONDS * 1_000_000L).build());
                feed.samples(runId, all.stream().filter(r -> r.step() == step)
                        .flatMap(r -> samples(r).stream()).toList());
                feed.lifecycle(runId, StepEnded.newBuilder().setRunId(runId).setStepIndex(i)
                        .setEndedAt(stepStart(runStart, i + 1)).build());
            }
            feed.lifecycle(runId, RunEnded.newBuilder().setRunId(runId).setEndedAt(stepStart(runStart, XS.length))
                    .setStatus(RunStatus.COMPLETED).build());
            feed.advance(Duration.ofSeconds(31));
            // the run's other rows are Ep19Runs': only the throughput series and the request rate's fit are stored
            feed.storeDerived(ds, runId + "-derived-throughput",
                    a -> a.getSource().toString().equals(MetricNames.THROUGHPUT_SOURCE));
            return feed.latestConclusion(runId).map(RunConclusion::getThroughputLimit).orElse(null);
        }
    }

    /** What caplab's Locust adapter makes of one second's history rows, and the generator's CPU gauge. */
    private static List<Sample> samples(Reading r) {
        long a = r.requests() / 2;
        long af = r.failures() / 2;
        List<Sample> out = new ArrayList<>();
        out.add(counter(r.at(), MetricNames.HTTP_REQS_COUNT, a, endpoint("/a")));
        out.add(counter(r.at(), MetricNames.HTTP_REQS_COUNT, r.requests() - a, endpoint("/b")));
        out.add(counter(r.at(), MetricNames.HTTP_REQS_COUNT, r.requests(), aggregated()));
        out.add(counter(r.at(), MetricNames.HTTP_FAILED_COUNT, af, endpoint("/a")));
        out.add(counter(r.at(), MetricNames.HTTP_FAILED_COUNT, r.failures() - af, endpoint("/b")));
        out.add(counter(r.at(), MetricNames.HTTP_FAILED_COUNT, r.failures(), aggregated()));
        Map<String, Double> quantiles = Map.of("0.5", r.p50Ms(), "0.95", r.p95Ms(), "0.99", r.p99Ms());
        out.add(Sample.newBuilder().setTimestamp(r.at()).setSource(TOOL).setMetric(MetricNames.HTTP_DURATION_MS)
                .setKind(SampleKind.SUMMARY).setValue(r.p50Ms()).setLabels(aggregated())
                .setSummary(SummaryStats.newBuilder().setWindow(SummaryWindow.WINDOW).setWindowMicros(10_000_000L)
                        .setCount(0).setQuantiles(quantiles).build())
                .build());
        out.add(Sample.newBuilder().setTimestamp(r.at()).setSource(GENERATOR)
                .setMetric(TrafficMetrics.LOADGEN_CPU_METRIC).setKind(SampleKind.GAUGE)
                .setValue(r.generatorCpuPercent()).setLabels(Map.of(LabelNames.ROLE, "loadgen")).build());
        return out;
    }

    private static Sample counter(Instant at, String metric, long value, Map<String, String> labels) {
        return Sample.newBuilder().setTimestamp(at).setSource(TOOL).setMetric(metric).setKind(SampleKind.COUNTER)
                .setValue(value).setLabels(labels).build();
    }

    private static Map<String, String> endpoint(String name) {
        return Map.of(LabelNames.NAME, name, LabelNames.METHOD, "GET");
    }

    private static Map<String, String> aggregated() {
        return Map.of(LabelNames.NAME, TrafficMetrics.LOCUST_TOTAL_NAME);
    }
}
