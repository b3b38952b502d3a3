package dev.caplab.store.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.schema.event.BottleneckRule;
import dev.caplab.schema.event.RunBottleneck;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.store.measure.MeasuredEgress;
import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.Segment;
import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.AlertKind;
import dev.caplab.schema.event.RunLateness;
import dev.caplab.schema.event.RunDeleted;
import dev.caplab.store.row.RunKindCount;
import dev.caplab.store.row.RunRow;
import dev.caplab.store.row.SampleRow;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.store.testing.ClickHouseTestExtension;
import dev.caplab.store.testing.TestDatabase;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store's read methods, the ones the query API uses, against a real engine: every filter, page and order, with
 * the expected rows written out here by hand rather than taken from what the store returns.
 */
@ExtendWith(ClickHouseTestExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReadApiIT {

    private static final Instant T0 = Instant.parse("2026-07-28T10:00:00Z");

    private final TestDatabase db;

    ReadApiIT(TestDatabase db) {
        this.db = db;
    }

    /** Five runs, one hour apart: a (oldest) .. e (newest). */
    private static RunRow run(String id, int hour, String sut, String version, String provider, String region,
                              String tier, String tool, Map<String, String> labels) {
        return new RunRow(id, T0.plusSeconds(3600L * hour), sut, version, null, provider, region, "cx22", tier, 2.0,
                null, 1000.0, null, tool, labels, List.of(), List.of(), "users", "DECLARED", null, null, null, 1);
    }

    private static final RunRow A = run("a", 0, "mmx", "0.9", "hetzner", "fsn1", "small", "k6",
            Map.of("episode", "ep19", "team", "media"));
    private static final RunRow B = run("b", 1, "mmx", "1.0", "aws", "eu-west-1", "small", "locust",
            Map.of("episode", "ep19"));
    private static final RunRow C = run("c", 2, "livekit", "1.8", "hetzner", "fsn1", "large", "k6",
            Map.of("team", "media"));
    private static final RunRow D = run("d", 3, "mmx", "1.0", "hetzner", "nbg1", "large", "k6", Map.of());
    private static final RunRow E = run("e", 4, "mmx", "1.0", "hetzner", "fsn1", "small", "k6",
            Map.of("episode", "ep20", "team", "media"));

    /** The newest run of all, deleted twice: no read may show it (every filter's expectation below leaves it out). */
    private static final RunRow F = run("f", 5, "mmx", "1.0", "hetzner", "fsn1", "small", "k6",
            Map.of("episode", "ep20", "team", "media"));
    private static final Instant F_DELETED = T0.plusSeconds(3600L * 9);

    @BeforeAll
    void store() {
        new RunRepository(db.dataSource()).insertBatch(List.of(A, B, C, D, E, F), "read-api-runs");
        DeletedRunRepository deletions = new DeletedRunRepository(db.dataSource());
        deletions.insertBatch(List.of(RunDeleted.newBuilder().setRunId("f").setDeletedAt(F_DELETED.plusSeconds(3600))
                .setReason("again").build()), "del-2");
        deletions.insertBatch(List.of(RunDeleted.newBuilder().setRunId("f").setDeletedAt(F_DELETED).setReason("stray")
                .build()), "del-1");
    }

    private List<String> ids(RunFilter filter) {
        return new RunRepository(db.dataSource()).find(filter).stream().map(RunRow::runId).toList();
    }

    private static RunFilter filter(String sut, String version, String provider, String region, String tier,
                                    String tool, Map<String, String> labels, Instant from, Instant to, int limit,
                                    int offset) {
        return new RunFilter(sut, version, provider, region, tier, tool, labels, from, to, limit, offset);
    }

    @Test
    void runsAreFoundByEachFilterNewestFirst() {
        assertThat(ids(RunFilter.all())).containsExactly("e", "d", "c", "b", "a");
        assertThat(ids(RunFilter.ofSystem("mmx", 100))).containsExactly("e", "d", "b", "a");
        assertThat(ids(filter(null, "1.0", null, null, null, null, Map.of(), null, null, 100, 0)))
                .containsExactly("e", "d", "b");
        assertThat(ids(RunFilter.all().withProvider("hetzner"))).containsExactly("e", "d", "c", "a");
        assertThat(ids(filter(null, null, null, "fsn1", null, null, Map.of(), null, null, 100, 0)))
                .containsExactly("e", "c", "a");
        assertThat(ids(RunFilter.all().withTier("large"))).containsExactly("d", "c");
        assertThat(ids(filter(null, null, null, null, null, "locust", Map.of(), null, null, 100, 0)))
                .containsExactly("b");
        assertThat(ids(filter(null, null, null, null, null, null, Map.of("team", "media"), null, null, 100, 0)))
                .containsExactly("e", "c", "a");
        assertThat(ids(filter(null, null, null, null, null, null, Map.of("team", "media", "episode", "ep19"), null,
                null, 100, 0))).as("every label must match").containsExactly("a");
        assertThat(ids(filter(null, null, null, null, null, null, Map.of(), T0.plusSeconds(3600),
                T0.plusSeconds(3 * 3600), 100, 0))).as("from inclusive, to exclusive").containsExactly("c", "b");
        assertThat(ids(filter("mmx", "", "", null, "", null, Map.of(), null, null, 100, 0)))
                .as("an empty value does not filter").containsExactly("e", "d", "b", "a");
        assertThat(ids(filter("mmx", null, "hetzner", "fsn1", "small", "k6", Map.of("team", "media"), null, null, 100,
                0))).containsExactly("e", "a");
    }

    @Test
    void aRunningRunIsFoundByTheStatusItIsListedWith() {
        // no fixture run has ended: each stores no status and is listed as RUNNING (RunRow.status)
        RunFilter running = new RunFilter(null, null, null, null, null, null, Map.of(), null, null, 100, 0, "RUNNING",
                null, true, null);
        assertThat(new RunRepository(db.dataSource()).find(running)).extracting(RunRow::status).containsOnly("RUNNING");
        assertThat(ids(running)).containsExactly("e", "d", "c", "b", "a");
        assertThat(ids(new RunFilter(null, null, null, null, null, null, Map.of(), null, null, 100, 0, "COMPLETED",
                null, true, null))).isEmpty();
    }

    @Test
    void runsArePagedAndBoundValuesNeverBecomeSql() {
        assertThat(ids(filter(null, null, null, null, null, null, Map.of(), null, null, 2, 0))).containsExactly("e",
                "d");
        assertThat(ids(filter(null, null, null, null, null, null, Map.of(), null, null, 2, 2))).containsExactly("c",
                "b");
        assertThat(ids(filter(null, null, null, null, null, null, Map.of(), null, null, 2, 4))).containsExactly("a");
        assertThat(ids(RunFilter.ofSystem("mmx' OR '1'='1", 100))).isEmpty();
        assertThat(ids(filter(null, null, null, null, null, null, Map.of("team'] = 'media' OR labels['x", "y"), null,
                null, 100, 0))).isEmpty();
    }

    @Test
    void aFilterThatCannotBeUsedNamesItsComponent() {
        assertThatThrownBy(() -> filter(null, null, null, null, null, null, Map.of(), null, null, 1001, 0))
                .isInstanceOfSatisfying(RunFilter.InvalidRunFilterException.class,
                        e -> assertThat(e.component()).isEqualTo("limit"));
        assertThatThrownBy(() -> filter(null, null, null, null, null, null, Map.of(), null, null, 1, -1))
                .isInstanceOfSatisfying(RunFilter.InvalidRunFilterException.class,
                        e -> assertThat(e.component()).isEqualTo("offset"));
        assertThatThrownBy(() -> filter(null, null, null, null, null, null, Map.of(), T0.plusSeconds(1), T0, 1, 0))
                .isInstanceOfSatisfying(RunFilter.InvalidRunFilterException.class,
                        e -> assertThat(e.component()).isEqualTo("from"));
    }

    @Test
    void runsAreFetchedByIdInTheOrderAskedSkippingUnknownOnes() {
        RunRepository runs = new RunRepository(db.dataSource());
        assertThat(runs.findAll(List.of("c", "nope", "a", "c"))).containsExactly(C, A);
        assertThat(runs.findAll(List.of())).isEmpty();
        assertThat(runs.find("b")).contains(B);
        assertThat(runs.find("nope")).isEmpty();
    }

    @Test
    void theNewestRunOfEachTierComesInOneReadDeletedOnesLeftOut() {
        RunRepository runs = new RunRepository(db.dataSource());
        // mmx small: a (hour 0), b (1), e (4), f (5, deleted); mmx large: d (3); livekit large: c (2)
        assertThat(runs.newestOfTiers("mmx", List.of("small", "large", "medium")))
                .extractingFromEntries(e -> e.getKey() + "=" + e.getValue().runId())
                .containsExactlyInAnyOrder("small=e", "large=d");
        assertThat(runs.newestOfTiers(null, List.of("large")).get("large").runId()).isEqualTo("d");
        assertThat(runs.newestOfTiers("livekit", List.of("large", "large")).get("large").runId()).isEqualTo("c");
        assertThat(runs.newestOfTiers("mmx", List.of())).isEmpty();
    }

    @Test
    void runsAreCountedByKindUnderAFilterWithoutBeingRead() {
        RunRepository runs = new RunRepository(db.dataSource());
        // mmx on small: a (0.9, hetzner, k6), b (1.0, aws, locust), e (1.0, hetzner, k6); f is deleted
        List<RunKindCount> small = runs.kinds(RunFilter.ofSystem("mmx", 1).withTier("small"));
        assertThat(small.stream().mapToLong(RunKindCount::runs).sum()).isEqualTo(3);
        assertThat(small).extracting(RunKindCount::tool).containsOnly("k6", "locust");
        assertThat(runs.kinds(RunFilter.all().withProvider("hetzner")).stream().mapToLong(RunKindCount::runs).sum())
                .isEqualTo(4); // a, c, d, e
        assertThat(runs.kinds(new RunFilter("mmx", null, null, null, null, null, Map.of(), null, null, 1, 0, null,
                null, true, "users")).stream().mapToLong(RunKindCount::runs).sum()).isEqualTo(4); // a, b, d, e
        assertThat(runs.kinds(new RunFilter("mmx", null, null, null, null, null, Map.of(), null, null, 1, 0, null,
                null, true, "rooms"))).isEmpty();
        assertThat(ids(new RunFilter(null, null, null, null, null, null, Map.of(), null, null, 100, 0, null,
                null, true, "rooms"))).isEmpty();
    }

    @Test
    void aDeletedRunIsInNoReadOfRunsAndItsFirstDeletionIsTheOneKept() {
        RunRepository runs = new RunRepository(db.dataSource());
        assertThat(runs.find("f")).isEmpty();
        assertThat(runs.findAll(List.of("f", "e"))).containsExactly(E);
        assertThat(ids(filter("mmx", "1.0", "hetzner", "fsn1", "small", "k6", Map.of("episode", "ep20"), null, null,
                10, 0))).containsExactly("e");
        assertThat(new DeletedRunRepository(db.dataSource()).find("f")).contains(
                RunDeleted.newBuilder().setRunId("f").setDeletedAt(F_DELETED).setReason("stray").build());
        assertThat(new DeletedRunRepository(db.dataSource()).find("e")).isEmpty();
    }

    @Test
    void theLatestIperf3SenderMeasurementIsTheRunsMeasuredEgress() {
        SampleRepository samples = new SampleRepository(db.dataSource());
        Map<String, String> sender = Map.of("scope", "test", "side", "sender");
        samples.insertBatch(List.of(
                SampleRow.of("egress", T0.plusSeconds(10), "iperf3", "net.throughput.mbps", "GAUGE", 94.5, sender),
                SampleRow.of("egress", T0.plusSeconds(70), "iperf3", "net.throughput.mbps", "GAUGE", 51.25, sender),
                // the receiver's figure and an interval's figure are not the ceiling, even when later
                SampleRow.of("egress", T0.plusSeconds(80), "iperf3", "net.throughput.mbps", "GAUGE", 500,
                        Map.of("scope", "test", "side", "receiver")),
                SampleRow.of("egress", T0.plusSeconds(90), "iperf3", "net.throughput.mbps", "GAUGE", 600,
                        Map.of("scope", "interval", "side", "sender"))), null);
        assertThat(samples.latestEgressMeasurement("egress")).contains(new MeasuredEgress(51.25,
                T0.plusSeconds(70)));
        assertThat(samples.latestEgressMeasurement("a")).isEmpty();
    }

    private static StepAggregate aggregate(String run, int step, String source, String metric, double sustained) {
        return StepAggregate.newBuilder().setRunId(run).setStepIndex(step).setLoad(Map.of("users", 10.0 * (step + 1)))
                .setX(10.0 * (step + 1)).setSource(source).setMetric(metric).setKind(SampleKind.GAUGE).setCount(60)
                .setWarmupCount(10).setSum(sustained * 60).setMin(sustained / 2).setMax(sustained * 2)
                .setMean(sustained).setSustained(sustained).setPeak(sustained * 2)
                .setQuantiles(Map.of("0.5", sustained)).setRatePerSecond(null).setBaselineDelta(null)
                .setWindowStart(T0.plusSeconds(60L * step)).setWindowEnd(T0.plusSeconds(60L * step + 60))
                .setContaminated(false).setVersion(1).build();
    }

    private static StepAggregate revision(StepAggregate row, int step, String source, String metric, long count,
            long version) {
        return StepAggregate.newBuilder(row).setStepIndex(step).setSource(source).setMetric(metric).setCount(count)
                .setWarmupCount(count == 0 ? 0 : row.getWarmupCount()).setVersion(version).setLateCount(0).build();
    }

    @Test
    void eachWindowShowsItsNewestRevisionAndAnEmptiedWindowNothing() {
        StepAggregateRepository aggregates = new StepAggregateRepository(db.dataSource());
        StepAggregate base = aggregate("windows", 0, "vm-1", "cpu.cores", 0.3);
        // Baseline: revision 1 had CPU and latency; revision 2 (the window moved) has CPU only.
        // Unassigned seconds: revision 1 had CPU; revision 2 says the window is empty now.
        // Step 0: one revision. Step 1: CPU amended (revision 3) beside memory of the same revision.
        aggregates.insertBatch(List.of(
                revision(base, -1, "vm-1", "cpu.cores", 10, 1), revision(base, -1, "client", "latency.ms", 10, 1),
                revision(base, -1, "vm-1", "cpu.cores", 5, 2),
                revision(base, -2, "vm-1", "cpu.cores", 3, 1),
                revision(base, -2, "caplab", "caplab.window.empty", 0, 2),
                revision(base, 0, "vm-1", "cpu.cores", 60, 1),
                revision(base, 1, "vm-1", "cpu.cores", 60, 2), revision(base, 1, "vm-1", "mem.bytes", 60, 2),
                revision(base, 1, "vm-1", "cpu.cores", 61, 3), revision(base, 1, "vm-1", "mem.bytes", 61, 3)), null);

        assertThat(aggregates.ofRun("windows")).extracting(r -> r.getStepIndex() + "|" + r.getMetric() + "|"
                + r.getCount()).containsExactly("-1|cpu.cores|5", "0|cpu.cores|60", "1|cpu.cores|61",
                "1|mem.bytes|61");
        assertThat(aggregates.ofRun("windows", "cpu.cores")).extracting(StepAggregate::getStepIndex)
                .containsExactly(-1, 0, 1);
        assertThat(aggregates.ofRun("windows", Optional.of("latency.ms"), Optional.empty())).isEmpty();
        assertThat(aggregates.ofRuns(List.of("windows", "nobody"))).isEqualTo(aggregates.ofRun("windows"));
    }

    @Test
    void aggregatesAreFilteredByMetricAndSourceOrderedByStepMetricSource() {
        StepAggregateRepository aggregates = new StepAggregateRepository(db.dataSource());
        StepAggregate cpuVm2Step1 = aggregate("agg", 1, "vm-2", "cpu.cores", 0.7);
        StepAggregate cpuVm1Step1 = aggregate("agg", 1, "vm-1", "cpu.cores", 0.6);
        StepAggregate memVm1Step0 = aggregate("agg", 0, "vm-1", "mem.bytes", 1e9);
        StepAggregate cpuVm1Step0 = aggregate("agg", 0, "vm-1", "cpu.cores", 0.3);
        aggregates.insertBatch(List.of(cpuVm2Step1, cpuVm1Step1, memVm1Step0, cpuVm1Step0,
                aggregate("other", 0, "vm-1", "cpu.cores", 9)), null);
        assertThat(aggregates.ofRun("agg", Optional.empty(), Optional.empty()))
                .containsExactly(cpuVm1Step0, memVm1Step0, cpuVm1Step1, cpuVm2Step1);
        assertThat(aggregates.ofRun("agg", Optional.of("cpu.cores"), Optional.empty()))
                .containsExactly(cpuVm1Step0, cpuVm1Step1, cpuVm2Step1);
        assertThat(aggregates.ofRun("agg", Optional.empty(), Optional.of("vm-1")))
                .containsExactly(cpuVm1Step0, memVm1Step0, cpuVm1Step1);
        assertThat(aggregates.ofRun("agg", Optional.of("cpu.cores"), Optional.of("vm-2")))
                .containsExactly(cpuVm2Step1);
        assertThat(aggregates.ofRun("agg", Optional.of("nope"), Optional.empty())).isEmpty();
    }

    private static CapacityFit fit(String source, String metric, long version) {
        return CapacityFit.newBuilder().setRunId("fit").setSource(source).setMetric(metric).setModel("segmented-1")
                .setModelVersion("1").setLoadExpression("users").setStepsUsed(5)
                .setSegments(List.of(Segment.newBuilder().setFromX(10.0).setToX(18.0).setIntercept(0.05)
                        .setSlope(0.022).setSlopeStdErr(0.004).build()))
                .setBreakpoints(List.of(Breakpoint.newBuilder().setX(18.0).setStdErr(0.3).setLower95(17.4)
                        .setUpper95(18.6).build()))
                .setBreakpointPValue(0.01).setRSquared(0.97).setCliff(true).setCliffStepIndex(4).setCapacity(1.0)
                .setMargin(0.6).setSafeCapacityX(18.0).setBottleneck(true).setFittedAt(T0.plusSeconds(version))
                .setVersion(version).build();
    }

    @Test
    void fitsAreTheLatestPerMetricAndSourceFilteredByMetric() {
        CapacityFitRepository fits = new CapacityFitRepository(db.dataSource());
        CapacityFit egress = fit("vm-1", "net.egress.mbps", 1);
        CapacityFit cpuVm2 = fit("vm-2", "cpu.cores", 1);
        CapacityFit cpuVm1Old = fit("vm-1", "cpu.cores", 1);
        CapacityFit cpuVm1 = fit("vm-1", "cpu.cores", 2);
        fits.insertBatch(List.of(egress, cpuVm2, cpuVm1Old), null);
        fits.insertBatch(List.of(cpuVm1), null);
        assertThat(fits.ofRun("fit", Optional.empty())).containsExactly(cpuVm1, cpuVm2, egress);
        assertThat(fits.ofRun("fit", Optional.of("cpu.cores"))).containsExactly(cpuVm1, cpuVm2);
        assertThat(fits.ofRun("fit", Optional.of("mem.bytes"))).isEmpty();
    }

    @Test
    void aCohortsFitsComeInOneReadByRunThenMetricAndSourceLatestVersionsOnly() {
        CapacityFitRepository fits = new CapacityFitRepository(db.dataSource());
        CapacityFit kCpu = withRun(fit("vm-1", "cpu.cores", 1), "cohort-k");
        CapacityFit kCpuNew = withRun(fit("vm-1", "cpu.cores", 3), "cohort-k");
        CapacityFit kEgress = withRun(fit("vm-1", "net.egress.mbps", 1), "cohort-k");
        CapacityFit jCpu = withRun(fit("vm-2", "cpu.cores", 2), "cohort-j");
        CapacityFit outside = withRun(fit("vm-1", "cpu.cores", 1), "cohort-x");
        fits.insertBatch(List.of(kCpu, kEgress, jCpu, outside), null);
        fits.insertBatch(List.of(kCpuNew), null);
        // asked k before j, k twice, and a run without fits: rows come by run id, each run's as ofRun orders them
        assertThat(fits.ofRuns(List.of("cohort-k", "cohort-j", "cohort-k", "cohort-none")))
                .containsExactly(jCpu, kCpuNew, kEgress);
        assertThat(fits.ofRuns(List.of())).isEmpty();
    }

    @Test
    void aCohortsConclusionsComeInOneReadTheNewestRevisionOfEachRun() {
        RunConclusionRepository conclusions = new RunConclusionRepository(db.dataSource());
        RunConclusion pOld = conclusion("cohort-p", 12.0, 1);
        RunConclusion pNew = conclusion("cohort-p", 14.0, 2);
        RunConclusion q = conclusion("cohort-q", 6.0, 1);
        RunConclusion other = conclusion("cohort-r", 3.0, 1);
        conclusions.insertBatch(List.of(pOld, q, other), null);
        conclusions.insertBatch(List.of(pNew), null);
        assertThat(conclusions.ofRuns(List.of("cohort-q", "cohort-p", "cohort-unknown"))).containsExactly(pNew, q);
    }

    private static CapacityFit withRun(CapacityFit f, String runId) {
        return CapacityFit.newBuilder(f).setRunId(runId).build();
    }

    private static RunConclusion conclusion(String runId, double maxStableX, long version) {
        return RunConclusion.newBuilder().setRunId(runId).setMaxStableX(maxStableX).setMaxStableStepIndex(3)
                .setFirstFailingX(maxStableX + 2).setFirstFailingStepIndex(4).setStepsJudged(5).setStepsSkipped(0)
                .setBottleneck(RunBottleneck.newBuilder().setSource("vm-1").setMetric("cpu.cores")
                        .setRule(BottleneckRule.SMALLEST_SAFE_CAPACITY).setValue(20.0).setRole("sut").build())
                .setMargin(0.6).setRunClosed(true).setModel("conclusions/1").setConcludedAt(T0.plusSeconds(version))
                .setVersion(version).build();
    }

    @Test
    void latenessIsTheLatestCountsAndAlertsComeOldestFirst() {
        RunLatenessRepository lateness = new RunLatenessRepository(db.dataSource());
        lateness.insertBatch(List.of(lateness("late", 4, 1, T0.plusSeconds(30), 2),
                lateness("late", 2, 0, T0.plusSeconds(20), 1)), null);
        assertThat(lateness.find("late")).contains(lateness("late", 4, 1, T0.plusSeconds(30), 2));
        assertThat(lateness.find("a")).isEmpty();

        AlertRepository alerts = new AlertRepository(db.dataSource());
        Alert cliff = alert("alerting", T0.plusSeconds(120), AlertKind.CLIFF_DETECTED, 4, "cpu 45% -> 88%");
        Alert failed = alert("alerting", T0.plusSeconds(60), AlertKind.STEP_FAILED, 3, "p95 812 ms");
        Alert contaminated = alert("alerting", T0.plusSeconds(60), AlertKind.STEP_CONTAMINATED, null,
                "llm container");
        alerts.insertBatch(List.of(cliff, failed, contaminated), null);
        assertThat(alerts.ofRun("alerting")).containsExactly(contaminated, failed, cliff);
    }

    private static RunLateness lateness(String run, long late, long beyond, Instant updatedAt, long version) {
        return RunLateness.newBuilder().setRunId(run).setLateSamples(late).setBeyondLatenessSamples(beyond)
                .setUpdatedAt(updatedAt).setVersion(version).build();
    }

    private static Alert alert(String run, Instant at, AlertKind kind, Integer stepIndex, String message) {
        return Alert.newBuilder().setRunId(run).setAt(at).setKind(kind).setStepIndex(stepIndex).setMessage(message)
                .build();
    }
}
