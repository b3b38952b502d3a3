package dev.caplab.query.testing;

import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunEgressCeiling;
import dev.caplab.schema.event.RunThroughputLimit;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.schema.event.SloRule;
import dev.caplab.schema.event.RuleOutcome;
import dev.caplab.schema.event.Comparator;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.RunConclusionRepository;
import dev.caplab.store.access.RunLatenessRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.access.StepAggregateRepository;
import dev.caplab.store.access.StepRepository;
import dev.caplab.store.access.StepVerdictRepository;
import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.RunLateness;
import dev.caplab.store.row.RunRow;
import dev.caplab.schema.event.Segment;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.store.row.StepRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The three EP19 tiers (seed 002) written straight into the store tables through the store's repositories, as the
 * sink would after the pipeline: LightNode 2 vCPU (bandwidth-bound at ~100 Mbps measured, 75 fails), AWS Lightsail
 * 2 vCPU (memory-bound, 300 fails), LightNode 1 vCPU (CPU cliff 18 → 19). Figures follow the report's tables.
 * LightNode 2 vCPU also shows late data (not in the report): step 1 was amended by {@link #LATE_SAMPLES} late samples
 * (version 2 of its verdict and of two aggregates beside version 1) and {@link #BEYOND_LATENESS} samples came beyond
 * the allowed lateness.
 */
public final class Ep19Runs {

    public static final String LIGHTNODE_2 = "ep19-lightnode-2vcpu";
    public static final String AWS_2 = "ep19-aws-lightsail-2vcpu";
    public static final String LIGHTNODE_1 = "ep19-lightnode-1vcpu";
    public static final int AMENDED_STEP = 1;
    public static final long LATE_SAMPLES = 3;
    public static final long BEYOND_LATENESS = 2;
    private static final Instant T0 = Instant.parse("2026-07-28T10:00:00Z");
    /** When the 2 vCPU AWS run, the one with a load tool's traffic ({@link RawTraffic}), started. */
    public static final Instant AWS_2_STARTED = T0.plusSeconds(86_400);
    private static final long GIB = 1L << 30;

    /** Every EP19 run's SLO rules: a latency rule the throughput chart draws as a line, and one it does not. */
    public static final List<SloRule> SLO_RULES = List.of(
            SloRule.newBuilder().setName("p95-latency").setMetric("http.req.duration.ms").setStatistic("p95")
                    .setComparator(Comparator.LE).setThreshold(200.0).build(),
            SloRule.newBuilder().setName("no-dropped-sessions").setMetric("sessions.dropped").setStatistic("max")
                    .setComparator(Comparator.LE).setThreshold(0.0).build());

    private Ep19Runs() {
    }

    public static void write(DataSource ds) {
        List<RunRow> runs = List.of(
                run(LIGHTNODE_2, 0, "lightnode", "manila", "2c4g", "2vcpu-4gb", 2.0, 4 * GIB, 100.0),
                run(AWS_2, 1, "aws-lightsail", "ap-southeast-1", "2c2g", "2vcpu-2gb", 2.0, 2 * GIB, 2400.0),
                run(LIGHTNODE_1, 2, "lightnode", "manila", "1c2g", "1vcpu-2gb", 1.0, 2 * GIB, 100.0));
        new RunRepository(ds).insertBatch(runs, "ep19-runs");
        List<StepRow> steps = new ArrayList<>();
        List<StepVerdict> verdicts = new ArrayList<>();
        List<StepAggregate> aggregates = new ArrayList<>();
        // LightNode 2 vCPU: CPU% ≈ 15 + 0.97 %·x, egress ≈ 1.9 Mbps per viewer until the ~100 Mbps throttle
        double[] ln2 = {12, 25, 50, 75};
        for (int i = 0; i < ln2.length; i++) {
            double x = ln2[i];
            boolean pass = x < 75;
            double cpu = pass ? 0.15 + 0.0097 * x : 1.55;
            double egress = Math.min(1.9 * x, 103);
            add(steps, verdicts, aggregates, LIGHTNODE_2, i, x, pass, pass ? null : "net.tx.mbps", cpu, egress,
                    0.9 * GIB + 4e6 * x);
        }
        double[] aws = {12, 25, 50, 75, 100, 150, 200, 250, 300};
        for (int i = 0; i < aws.length; i++) {
            double x = aws[i];
            boolean pass = x < 300;
            add(steps, verdicts, aggregates, AWS_2, i, x, pass, pass ? null : "mem.used.bytes",
                    0.15 + 0.0045 * x, 1.9 * x, pass ? 0.4 * GIB + 5.4e6 * x : 2 * GIB - 33e6);
        }
        double[] ln1 = {10, 15, 17, 18, 19};
        double[] ln1Cpu = {0.26, 0.45, 0.47, 0.45, 0.95};
        for (int i = 0; i < ln1.length; i++) {
            boolean pass = ln1[i] < 19;
            add(steps, verdicts, aggregates, LIGHTNODE_1, i, ln1[i], pass, pass ? null : "cpu.cores", ln1Cpu[i],
                    1.9 * ln1[i], 0.5 * GIB + 4e6 * ln1[i]);
        }
        new StepRepository(ds).insertBatch(steps, "ep19-steps");
        new StepVerdictRepository(ds).insertBatch(verdicts, "ep19-verdicts");
        new StepAggregateRepository(ds).insertBatch(aggregates, "ep19-aggregates");
        new CapacityFitRepository(ds).insertBatch(List.of(
                fit(LIGHTNODE_2, "cpu.cores", "linear", line(12, 50, 0.15, 0.0097), List.of(), false, null, 2.0, 92.8,
                        false),
                fit(LIGHTNODE_2, "net.tx.mbps", "linear", line(12, 50, 0.0, 1.9), List.of(), false, null, 100.0, 31.6,
                        true),
                fit(AWS_2, "cpu.cores", "linear", line(12, 250, 0.15, 0.0045), List.of(), false, null, 2.0, 233.3, false),
                fit(AWS_2, "mem.used.bytes", "linear", line(12, 250, 0.4 * GIB, 5.4e6), List.of(), false, null,
                        2.0 * GIB, 158.6, true),
                fit(LIGHTNODE_1, "cpu.cores", "segmented-1",
                        List.of(StoredFits.segment(10.0, 18.0, -0.05, 0.029, 0.006),
                                StoredFits.segment(18.0, 19.0, -8.5, 0.5, null)),
                        List.of(StoredFits.breakpoint(18.0, 0.3, 17.4, 18.6)), true, 4, 1.0, 18.0, true)), "ep19-fits");
        amendLightNode2(ds);
        writeConclusions(ds, throughputAws2(ds));
    }

    /**
     * What streams concluded for each tier, the same lines and ceilings as the fits. LightNode 2: cpu (1.2 − 0.15)/0.0097
     * = 108.2, egress 60/1.9 = 31.6 → egress binds. AWS: cpu (1.2 − 0.15)/0.0045 = 233.3, memory
     * (0.6·2 GiB − 0.4 GiB)/5.4e6 = 159.1 → memory binds. LightNode 1: cpu (0.6 + 0.05)/0.029 = 22.4 lies past the
     * cliff after 18, so 18. The AWS run's throughput limit is what the production topology concluded from its raw
     * load-tool readings ({@link #throughputAws2}).
     */
    private static void writeConclusions(DataSource ds, RunThroughputLimit aws2Throughput) {
        var ln2Cpu = StoredConclusions.estimate("node", "cpu.cores", 0.15, 0.0097, 0.0097 * 0.05, 3, 12, 50, 2.0, null);
        var ln2Egress = StoredConclusions.estimate("node", "net.tx.mbps", 0.0, 1.9, 1.9 * 0.05, 3, 12, 50, 100.0, null);
        var awsCpu = StoredConclusions.estimate("node", "cpu.cores", 0.15, 0.0045, 0.0045 * 0.05, 8, 12, 250, 2.0, null);
        var awsMem = StoredConclusions.estimate("node", "mem.used.bytes", 0.4 * GIB, 5.4e6, 5.4e6 * 0.05, 8, 12, 250,
                2.0 * GIB, null);
        var ln1Cpu = StoredConclusions.estimate("node", "cpu.cores", -0.05, 0.029, 0.006, 4, 10, 18, 1.0, 18.0);
        new RunConclusionRepository(ds).insertBatch(List.of(
                RunConclusion.newBuilder(StoredConclusions.row(LIGHTNODE_2, 50.0, 2, 75.0, 3, 4, ln2Egress,
                        List.of(ln2Cpu, ln2Egress), T0.plusSeconds(600)))
                        .setEgressCeiling(declaredMeasured(100.0)).build(),
                RunConclusion.newBuilder(StoredConclusions.row(AWS_2, 250.0, 7, 300.0, 8, 9, awsMem,
                        List.of(awsCpu, awsMem), T0.plusSeconds(86_400 + 1_200))).setThroughputLimit(aws2Throughput)
                        .setEgressCeiling(declaredMeasured(2400.0)).build(),
                RunConclusion.newBuilder(StoredConclusions.row(LIGHTNODE_1, 18.0, 3, 19.0, 4, 5, ln1Cpu,
                        List.of(ln1Cpu), T0.plusSeconds(2 * 86_400 + 600)))
                        .setEgressCeiling(declaredMeasured(100.0)).build()),
                "ep19-conclusions");
    }

    /** The egress ceiling streams concludes for a run that declared a measured egress of {@code mbps} Mbit/s. */
    private static RunEgressCeiling declaredMeasured(double mbps) {
        return RunEgressCeiling.newBuilder().setMbps(mbps).setSource("DECLARED_MEASURED").build();
    }

    /**
     * The 2 vCPU AWS run streamed from a load tool: its throughput is what the production topology derives from
     * {@link RawTraffic}'s raw readings (requests/s about min(20·x, 3000), flat from x = 150 on); returns the
     * throughput limit it concluded.
     */
    private static RunThroughputLimit throughputAws2(DataSource ds) {
        return RawTraffic.write(ds, AWS_2, AWS_2_STARTED);
    }

    /** What the sink writes when late samples reach a closed step: higher versions, and the run's counts. */
    private static void amendLightNode2(DataSource ds) {
        Map<String, Double> load = Map.of("viewers", 25.0);
        Instant start = T0.plusSeconds(120L * AMENDED_STEP);
        new StepVerdictRepository(ds).insertBatch(List.of(StoredVerdicts.verdict(LIGHTNODE_2, AMENDED_STEP, load, 25.0,
                true, null).setVersion(2).setLateCount(LATE_SAMPLES).build()), "ep19-amended-verdicts");
        new StepAggregateRepository(ds).insertBatch(List.of(
                aggregate(LIGHTNODE_2, AMENDED_STEP, load, 25.0, "cpu.cores", 0.15 + 0.0097 * 25, start, 2, 2),
                aggregate(LIGHTNODE_2, AMENDED_STEP, load, 25.0, "net.tx.mbps", 1.9 * 25, start, 2, 1)),
                "ep19-amended-aggregates");
        new RunLatenessRepository(ds).insertBatch(List.of(
                lateness(1, 0, T0.plusSeconds(600), 1),
                lateness(LATE_SAMPLES, BEYOND_LATENESS, T0.plusSeconds(3_600), 2)),
                "ep19-lateness");
    }

    private static RunRow run(String id, int n, String provider, String region, String type, String tier, double vcpu,
                              long memory, double measuredEgress) {
        return new RunRow(id, T0.plusSeconds(86_400L * n), "mmx-standalone", "1.4.0", null, provider, region, type,
                tier, vcpu, memory, 1000.0, measuredEgress, "whep-loadgen", Map.of("episode", "ep19"), List.of(),
                SLO_RULES,
                "viewers", "DECLARED", T0.plusSeconds(86_400L * n + 3_600), "COMPLETED", null, 2);
    }

    private static void add(List<StepRow> steps, List<StepVerdict> verdicts, List<StepAggregate> aggregates,
                            String runId, int i, double x, boolean pass, String bottleneck, double cpuCores,
                            double egressMbps, double memBytes) {
        Instant start = T0.plusSeconds(120L * i);
        Map<String, Double> load = Map.of("viewers", x);
        steps.add(new StepRow(runId, i, load, start, 15_000_000L, start.plusSeconds(120), 2));
        List<RuleOutcome> outcomes = pass ? List.of() : List.of(RuleOutcome.newBuilder().setRule(SLO_RULES.get(1))
                .setObserved(3.0).setPassed(false).setReason("sessions dropped").build());
        verdicts.add(StoredVerdicts.verdict(runId, i, load, x, pass, bottleneck).setOutcomes(outcomes).build());
        aggregates.add(aggregate(runId, i, load, x, "cpu.cores", cpuCores, start));
        aggregates.add(aggregate(runId, i, load, x, "net.tx.mbps", egressMbps, start));
        aggregates.add(aggregate(runId, i, load, x, "mem.used.bytes", memBytes, start));
    }

    private static StepAggregate aggregate(String runId, int i, Map<String, Double> load, double x, String metric,
                                           double sustained, Instant start) {
        return aggregate(runId, i, load, x, metric, sustained, start, 1, 0);
    }

    private static StepAggregate aggregate(String runId, int i, Map<String, Double> load, double x, String metric,
                                           double sustained, Instant start, long version, long lateCount) {
        return StepAggregate.newBuilder().setRunId(runId).setStepIndex(i).setLoad(load).setX(x).setSource("node")
                .setMetric(metric).setKind(SampleKind.GAUGE).setCount(105).setWarmupCount(15)
                .setSum(sustained * 105).setMin(sustained * 0.9).setMax(sustained * 1.15).setMean(sustained)
                .setSustained(sustained).setPeak(sustained * 1.15)
                .setQuantiles(Map.of("0.5", sustained, "0.95", sustained * 1.1, "0.99", sustained * 1.14))
                .setRatePerSecond(null).setBaselineDelta(null).setWindowStart(start)
                .setWindowEnd(start.plusSeconds(120)).setContaminated(false).setVersion(version)
                .setLateCount(lateCount).build();
    }

    private static RunLateness lateness(long late, long beyond, Instant updatedAt, long version) {
        return RunLateness.newBuilder().setRunId(LIGHTNODE_2).setLateSamples(late).setBeyondLatenessSamples(beyond)
                .setUpdatedAt(updatedAt).setVersion(version).build();
    }

    private static List<Segment> line(double from, double to, double base, double slope) {
        return List.of(StoredFits.segment(from, to, base, slope, slope * 0.05));
    }

    private static CapacityFit fit(String runId, String metric, String model, List<Segment> segments,
                                      List<Breakpoint> breakpoints,
                                      boolean cliff, Integer cliffStep, double capacity, double safeX,
                                      boolean bottleneck) {
        return StoredFits.fit(runId, "node", metric, model, "1", "viewers", 5, segments, breakpoints,
                cliff ? 0.01 : null, 0.98, cliff, cliffStep, capacity, 0.6, safeX, bottleneck,
                T0.plusSeconds(7_200), 1);
    }
}
