package dev.caplab.query.report;

import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.access.StepAggregateRepository;
import dev.caplab.store.access.StepRepository;
import dev.caplab.store.access.StepVerdictRepository;
import dev.caplab.store.row.BreakpointValue;
import dev.caplab.store.row.CapacityFitRow;
import dev.caplab.store.row.RuleOutcomeValue;
import dev.caplab.store.row.SegmentValue;
import dev.caplab.store.row.SloRuleValue;
import dev.caplab.store.row.RunRow;
import dev.caplab.store.row.StepAggregateRow;
import dev.caplab.store.row.StepRow;
import dev.caplab.store.row.StepVerdictRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * An HTTP service's run whose SUT name is hostile markup, written into the store as the sink would: three steps of
 * k6 load (users 10, 20, 40; the last fails its p95 rule), request and failure counters, per-request latency, host
 * CPU, the per-step throughput series streams derives from them (source {@code caplab:throughput}: requests/s, error
 * ratio, latency quantiles from the merged sketches; three steps are too few to fit a throughput limit), and a
 * segmented CPU fit with its knee at {@link #KNEE} users. The figures below are what a report must show.
 */
final class TrafficRun {

    static final String RUN_ID = "report-traffic-run";
    static final String SUT = "<script>document.title='owned'</script>";
    static final double[] USERS = {10, 20, 40};
    static final boolean[] PASSED = {true, true, false};
    static final double[] REQUESTS_PER_S = {50, 100, 120};
    static final double[] FAILED_PER_S = {0, 1, 12};
    static final double[] P50_MS = {20, 25, 300};
    static final double[] P95_MS = {40, 60, 900};
    static final double[] P99_MS = {55, 80, 1500};
    static final double[] CPU_CORES = {0.3, 0.55, 1.0};
    static final double KNEE = 20;
    static final double KNEE_LOWER = 18;
    static final double KNEE_UPPER = 23;
    private static final Instant T0 = Instant.parse("2026-08-01T09:00:00Z");

    private TrafficRun() {
    }

    static void write(DataSource ds) {
        new RunRepository(ds).insertBatch(List.of(new RunRow(RUN_ID, T0, SUT, "2.0", null, "hetzner", "fsn1",
                "cx22", "2vcpu-4gb", 2.0, 4L << 30, 1000.0, null, "k6", Map.of("owner", "<b>ops</b>"), List.of(), List.of(),
                "users", "DECLARED", T0.plusSeconds(400), "COMPLETED", null, 1)), "report-run");
        List<StepRow> steps = new ArrayList<>();
        List<StepVerdictRow> verdicts = new ArrayList<>();
        List<StepAggregateRow> aggregates = new ArrayList<>();
        for (int i = 0; i < USERS.length; i++) {
            Instant start = T0.plusSeconds(100L * i + 10);
            Map<String, Double> load = Map.of("users", USERS[i]);
            steps.add(new StepRow(RUN_ID, i, load, start, 10_000_000L, start.plusSeconds(100), 1));
            List<RuleOutcomeValue> outcomes = PASSED[i] ? List.of() : List.of(new RuleOutcomeValue(
                    new SloRuleValue("p95(http_req_duration)<=500", "http_req_duration", "p95", "LE", 500.0, null),
                    900.0, false, "p95 too high"));
            verdicts.add(new StepVerdictRow(RUN_ID, i, load, USERS[i], PASSED[i], outcomes, false, null,
                    PASSED[i] ? null : "http_req_duration", 1, 0));
            aggregates.add(counter(i, load, start, "http.reqs.count", REQUESTS_PER_S[i]));
            aggregates.add(counter(i, load, start, "http.req.failed.count", FAILED_PER_S[i]));
            aggregates.add(new StepAggregateRow(RUN_ID, i, load, USERS[i], "k6", "http_req_duration", "GAUGE",
                    (long) (REQUESTS_PER_S[i] * 100), (long) (REQUESTS_PER_S[i] * 10), P50_MS[i] * 1000, 2, P99_MS[i] * 2,
                    P50_MS[i] * 1.1, P50_MS[i], P99_MS[i], Map.of("0.5", P50_MS[i], "0.95", P95_MS[i], "0.99", P99_MS[i]),
                    null, null, start, start.plusSeconds(100), false, 1, 0));
            aggregates.addAll(derived(i, load, start));
            aggregates.add(new StepAggregateRow(RUN_ID, i, load, USERS[i], "host", "cpu.cores", "GAUGE", 100, 10,
                    CPU_CORES[i] * 100, CPU_CORES[i] * 0.9, CPU_CORES[i] * 1.1, CPU_CORES[i], CPU_CORES[i],
                    CPU_CORES[i] * 1.1, Map.of("0.5", CPU_CORES[i]), null, null, start, start.plusSeconds(100), false,
                    1, 0));
        }
        new StepRepository(ds).insertBatch(steps, "report-steps");
        new StepVerdictRepository(ds).insertBatch(verdicts, "report-verdicts");
        new StepAggregateRepository(ds).insertBatch(aggregates, "report-aggregates");
        new CapacityFitRepository(ds).insertBatch(List.of(new CapacityFitRow(RUN_ID, "host", "cpu.cores",
                "segmented-1", "1", "users", 3,
                List.of(new SegmentValue(10.0, 20.0, 0.05, 0.025, 0.002), new SegmentValue(20.0, 40.0, 0.1, 0.0225, null)),
                List.of(new BreakpointValue(KNEE, 1.2, KNEE_LOWER, KNEE_UPPER)),
                0.03, 0.97, false, null, 2.0, 0.6, 42.0, true, T0.plusSeconds(500), 1)), "report-fits");
    }

    /** What streams derives for step {@code i} over its 90 steady seconds (as {@code StepThroughput} writes it). */
    private static List<StepAggregateRow> derived(int i, Map<String, Double> load, Instant start) {
        long requests = (long) (REQUESTS_PER_S[i] * 90);
        double errorRatio = FAILED_PER_S[i] / REQUESTS_PER_S[i];
        return List.of(flat(i, load, start, "throughput.requests.per_s", requests, REQUESTS_PER_S[i], Map.of()),
                flat(i, load, start, "throughput.errors.ratio", Math.round(errorRatio * requests), errorRatio, Map.of()),
                flat(i, load, start, "throughput.latency.ms", requests, P50_MS[i],
                        Map.of("0.5", P50_MS[i], "0.95", P95_MS[i], "0.99", P99_MS[i])));
    }

    private static StepAggregateRow flat(int i, Map<String, Double> load, Instant start, String metric, long count,
                                         double value, Map<String, Double> quantiles) {
        return new StepAggregateRow(RUN_ID, i, load, USERS[i], "caplab:throughput", metric, "GAUGE", count, 0,
                value * count, value, value, value, value, value, quantiles, null, null, start,
                start.plusSeconds(100), false, 1, 0);
    }

    private static StepAggregateRow counter(int i, Map<String, Double> load, Instant start, String metric,
                                            double perSecond) {
        return new StepAggregateRow(RUN_ID, i, load, USERS[i], "k6", metric, "COUNTER", 100, 10, perSecond * 100,
                perSecond * 0.9, perSecond * 1.1, perSecond, perSecond, perSecond * 1.1, Map.of(), perSecond, null,
                start, start.plusSeconds(100), false, 1, 0);
    }
}
