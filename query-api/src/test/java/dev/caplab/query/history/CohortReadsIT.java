package dev.caplab.query.history;

import dev.caplab.schema.event.BottleneckRule;
import dev.caplab.schema.event.RunBottleneck;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunThroughputLimit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.query.plan.Plan;
import dev.caplab.query.plan.PlanRequest;
import dev.caplab.query.plan.PlanService;
import dev.caplab.store.row.RunRow;
import dev.caplab.query.testing.StatementLog;
import dev.caplab.query.testing.StoreTestSupport;
import dev.caplab.query.testing.StoredConclusions;
import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.RunConclusionRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.query.testing.StoredFits;
import dev.caplab.schema.event.Segment;
import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.store.testing.TestDatabase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A cohort's conclusions and fits are read for all its runs at once, in two statements whatever its size, with the
 * values stored per run; and a plan names what a left-out run is missing. Real embedded ClickHouse; the statements
 * are counted on the data source the API reads through.
 */
@SpringBootTest
@Import(CohortReadsIT.CountingStore.class)
class CohortReadsIT {

    private static final Instant T0 = Instant.parse("2026-10-01T08:00:00Z");
    private static final int RUNS = 9;
    private static final StatementLog STATEMENTS = new StatementLog();
    private static TestDatabase database;

    @Autowired
    StoredRunMetrics metrics;
    @Autowired
    RunRepository runs;
    @Autowired
    PlanService plans;

    static synchronized TestDatabase database() {
        if (database == null) {
            database = EmbeddedClickHouse.shared().freshDatabase("cohort_reads");
            write(database.dataSource());
        }
        return database;
    }

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        StoreTestSupport.properties(registry, CohortReadsIT::database);
    }

    /** Named apart from the other ITs' {@code dataSource} beans, which slice tests' scanning may also see. */
    @TestConfiguration(proxyBeanMethods = false)
    static class CountingStore {
        @Bean
        DataSource countingDataSource() {
            return STATEMENTS.wrap(database().dataSource());
        }
    }

    @Test
    void aCohortIsReadInTwoStatementsWithEachRunsStoredValues() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            ids.add("c-" + i);
        }
        ids.add("c-bare");
        List<RunRow> cohort = runs.findAll(ids);
        assertThat(cohort).hasSize(RUNS + 1);

        STATEMENTS.clear();
        List<RunMetrics> read = metrics.metricsOf(cohort);
        assertThat(STATEMENTS.statements()).as("statements for a cohort of %d runs", cohort.size()).hasSize(2);

        assertThat(read).extracting(RunMetrics::runId).containsExactlyElementsOf(ids);
        for (int i = 0; i < RUNS; i++) {
            RunMetrics m = read.get(i);
            // written below: max stable 10 + i; cpu.cores on vm-b (flagged bottleneck) slope 0.01·(i+1), knee 20 + i,
            // on vm-a slope 9 (not the bottleneck, so not the run's line); egress on vm-a slope 0.5, no knee
            assertThat(m.maxStableX()).as(m.runId()).isEqualTo(10.0 + i);
            assertThat(m.bottleneck()).as(m.runId()).isEqualTo("cpu.cores");
            assertThat(m.resources()).as(m.runId()).containsOnlyKeys("cpu.cores", "net.tx.mbps",
                    "throughput.requests.per_s");
            assertThat(m.throughputLimitX()).as(m.runId()).isEqualTo(i % 2 == 1 ? null : 40.0 + i);
            assertThat(HistorySeries.THROUGHPUT_LIMIT.valueOf(m, "cpu.cores")).as(m.runId())
                    .isEqualTo(i % 2 == 1 ? null : 40.0 + i);
            assertThat(m.resources().get("cpu.cores")).isEqualTo(new RunMetrics.ResourceLine(0.01 * (i + 1), 20.0 + i));
            assertThat(m.resources().get("net.tx.mbps")).isEqualTo(new RunMetrics.ResourceLine(0.5, null));
        }
        RunMetrics bare = read.get(RUNS);
        assertThat(bare).isEqualTo(new RunMetrics("c-bare", null, null, null, Map.of()));
    }

    @Test
    void aPlanNamesWhatALeftOutRunIsMissing() {
        Plan plan = plans.plan(new PlanRequest(new PlanRequest.Profile("webinar", 10.0, null, null, null),
                List.of("c-bare", "c-0"), List.of(), null, null));
        assertThat(plan.tiers()).isEmpty();
        assertThat(plan.warnings()).containsExactly(
                "run c-bare (no tier declared) is left out: it has no run conclusion yet (no step closed)",
                "run c-0 (tier 2vcpu-4gb) is left out: none of its fitted resources [cpu.cores] has a ceiling"
                        + " (declare the run's vcpu, memory or egress)");
        assertThat(plan.warnings()).noneMatch(w -> w.contains("(null)"));
    }

    private static void write(DataSource ds) {
        List<RunRow> runRows = new ArrayList<>();
        List<CapacityFit> fits = new ArrayList<>();
        List<RunConclusion> conclusions = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            String id = "c-" + i;
            Instant start = T0.plusSeconds(3_600L * i);
            runRows.add(run(id, start, "2vcpu-4gb"));
            fits.add(fit(id, "vm-a", "cpu.cores", 9.0, 30.0, false, start));
            fits.add(fit(id, "vm-b", "cpu.cores", 0.01 * (i + 1), 20.0 + i, true, start));
            fits.add(fit(id, "vm-a", "net.tx.mbps", 0.5, null, false, start));
            // an estimate without a ceiling: plans cannot place a profile on it
            ResourceEstimate cpu = ResourceEstimate.newBuilder().setSource("vm-b").setMetric("cpu.cores")
                    .setIntercept(0.1).setSlope(0.01 * (i + 1)).setDegreesOfFreedom(3).setPreKneeSteps(5)
                    .setFromX(2.0).setToX(20.0 + i).setCappedByCliff(false).setCliff(false).build();
            RunConclusion.Builder concluded = RunConclusion.newBuilder(StoredConclusions.row(id, 10.0 + i, 4,
                    12.0 + i, 5, 6, null, List.of(cpu), start)).setBottleneck(RunBottleneck.newBuilder()
                    .setSource("vm-b").setMetric("cpu.cores").setRule(BottleneckRule.FIRST_STEP_OVER_MARGIN)
                    .setValue(0.7).setStepIndex(4).build());
            // even runs: a throughput limit at 40 + i; the request rate's fit breaks at 7 + i, which is no limit
            fits.add(fit(id, "caplab:throughput", "throughput.requests.per_s", 1.0, 7.0 + i, false, start));
            conclusions.add(i % 2 == 1 ? concluded.build() : concluded.setThroughputLimit(RunThroughputLimit
                    .newBuilder().setKneeX(40.0 + i).setKneeLower95(39.0 + i).setKneeUpper95(41.0 + i)
                    .setPlateauRatePerSecond(40.0 + i).setSlopeBeforePerX(1.0).setSlopeAfterPerX(0.0)
                    .setBreakpointPValue(0.001).setStepsUsed(6).setFittedAt(start).build()).build());
        }
        runRows.add(run("c-bare", T0.minusSeconds(3_600), null));
        new RunRepository(ds).insertBatch(runRows, "cohort-runs");
        new CapacityFitRepository(ds).insertBatch(fits, "cohort-fits");
        new RunConclusionRepository(ds).insertBatch(conclusions, "cohort-conclusions");
    }

    private static RunRow run(String id, Instant start, String tier) {
        return new RunRow(id, start, "cohort", "1.0", null, "lab", "local", "vm", tier, null, null, null, null, "k6",
                Map.of(), List.of(), List.of(), "users", "DECLARED", start.plusSeconds(1_800), "COMPLETED", null, 1);
    }

    private static CapacityFit fit(String runId, String source, String metric, double slope, Double knee,
                                      boolean bottleneck, Instant at) {
        List<Breakpoint> breakpoints = knee == null ? List.of()
                : List.of(StoredFits.breakpoint(knee, 0.5, knee - 1, knee + 1));
        return StoredFits.fit(runId, source, metric, "segmented", "1", "users", 6,
                List.of(StoredFits.segment(2.0, knee == null ? 30.0 : knee, 0.1, slope, 0.001)), breakpoints,
                knee == null ? null : 0.001, 0.99, false, null, null, 0.6, null, bottleneck, at, 1);
    }
}
