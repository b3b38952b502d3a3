package dev.caplab.store.access;

import dev.caplab.schema.event.BottleneckRule;
import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.schema.event.RunBottleneck;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunEgressCeiling;
import dev.caplab.schema.event.RunThroughputLimit;
import dev.caplab.schema.event.RunWarning;
import dev.caplab.schema.event.Comparator;
import dev.caplab.schema.event.RuleOutcome;
import dev.caplab.schema.event.SloRule;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.Segment;
import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.AlertKind;
import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.RunLateness;
import dev.caplab.store.row.RunRow;
import dev.caplab.store.row.SampleRow;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.store.row.StepRow;
import dev.caplab.store.testing.ClickHouseTestExtension;
import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.store.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every repository against a migrated database: what goes in comes back, replays never duplicate. */
@ExtendWith(ClickHouseTestExtension.class)
class RepositoriesIT {

    private static final Instant T0 = Instant.parse("2026-04-01T10:00:00.000001Z");

    private final TestDatabase db;

    RepositoriesIT(TestDatabase db) {
        this.db = db;
    }

    private static RunRow run(String id, String provider, long version) {
        return new RunRow(id, T0, "livekit", "1.8", null, provider, "eu-1", "cx22", "small", 2.0, 4L << 30, 1000.0,
                null, "k6", Map.of("team", "media"), List.of(Map.of("users", 10.0)), List.of(SloRule.newBuilder()
                        .setName("p95").setMetric("http_req_duration").setStatistic("p95")
                        .setComparator(Comparator.LE).setThreshold(500.0).build()), "users", "DECLARED", null, null,
                null, version);
    }

    @Test
    void runsAreFilteredAndTheirEndIsANewVersion() {
        RunRepository runs = new RunRepository(db.dataSource());
        runs.insertBatch(List.of(run("r-a", "hetzner", 0), run("r-b", "aws", 0)), "runs-1");
        runs.markEnded("r-a", T0.plusSeconds(600), "COMPLETED", null, 1);
        assertThat(runs.find("r-a")).get().satisfies(r -> {
            assertThat(r.endedAt()).isEqualTo(T0.plusSeconds(600));
            assertThat(r.status()).isEqualTo("COMPLETED");
            assertThat(r.version()).isEqualTo(RunRepository.ENDED_BIT | 1);
            assertThat(r.labels()).containsEntry("team", "media");
            assertThat(r.measuredEgressMbps()).isNull();
        });
        assertThat(runs.find(RunFilter.all().withProvider("aws"))).extracting(RunRow::runId).containsExactly("r-b");
        assertThat(runs.find(RunFilter.ofSystem("' OR 1=1 --", 100))).isEmpty();
    }

    @Test
    void aDeclaredStartOutranksAnInferredOneAndAnEndCopiesWhicheverIsLatest() {
        RunRepository runs = new RunRepository(db.dataSource());
        RunRow inferred = new RunRow("r-i", T0, "unknown", null, null, "unknown", null, null, null, null, null, null,
                null, "k6-json", Map.of(), List.of(), List.of(), "load", "INFERRED", null, null, null,
                RunRepository.startVersion(false, 9));
        // the inferred start has the higher offset (9 > 5), the declared one still wins
        runs.insertBatch(List.of(inferred), "runs-i-9");
        RunRow declared = run("r-i", "hetzner", RunRepository.startVersion(true, 5));
        runs.insertBatch(List.of(new RunRow("r-i", T0, "livekit", "1.8", null, "hetzner", null, null, null, null, null,
                null, null, "k6", Map.of(), List.of(), List.of(), "users", "DECLARED", null, null, null, declared.version())),
                "runs-i-5");
        assertThat(runs.find("r-i")).get().extracting(RunRow::provider, RunRow::origin)
                .containsExactly("hetzner", "DECLARED");
        runs.insertBatch(List.of(new RunRow("r-i", T0.minusSeconds(5), "unknown", null, null, "unknown", null, null,
                null, null, null, null, null, "k6-json", Map.of(), List.of(), List.of(), "load", "INFERRED", null, null, null,
                RunRepository.startVersion(false, 12))), "runs-i-12");
        assertThat(runs.find("r-i")).get().extracting(RunRow::provider).isEqualTo("hetzner");

        // an end (offset 10) copies the declared row and keeps outranking inferred starts
        runs.markEnded("r-i", T0.plusSeconds(60), "COMPLETED", "idle", 11);
        assertThat(runs.find("r-i")).get().satisfies(r -> {
            assertThat(r.provider()).isEqualTo("hetzner");
            assertThat(r.status()).isEqualTo("COMPLETED");
            assertThat(r.endedAt()).isEqualTo(T0.plusSeconds(60));
            assertThat(r.version()).isEqualTo(RunRepository.DECLARED_BIT | RunRepository.ENDED_BIT | 11);
        });
        // a replay of the same end changes nothing; an inferred-only run's end has no declared bit
        runs.markEnded("r-i", T0.plusSeconds(60), "COMPLETED", "idle", 11);
        runs.insertBatch(List.of(new RunRow("r-j", T0, "unknown", null, null, "unknown", null, null, null, null, null,
                null, null, "k6-json", Map.of(), List.of(), List.of(), "load", "INFERRED", null, null, null,
                RunRepository.startVersion(false, 3))), "runs-j-3");
        runs.markEnded("r-j", T0.plusSeconds(30), "COMPLETED", null, 4);
        assertThat(runs.find("r-j")).get().extracting(RunRow::origin, RunRow::version)
                .containsExactly("INFERRED", RunRepository.ENDED_BIT | 4);
    }

    /** A sink batch's ends in one statement each: every step and run as if ended one at a time, stale ends ignored. */
    @Test
    void manyEndsAtOnceAreEachRecordedAsAloneAndAStaleOneChangesNothing() {
        RunRepository runs = new RunRepository(db.dataSource());
        StepRepository steps = new StepRepository(db.dataSource());
        runs.insertBatch(List.of(run("r-m1", "m-aws", RunRepository.startVersion(true, 1)), run("r-m2", "m-gcp", 2)),
                "runs-m");
        steps.insertBatch(List.of(new StepRow("r-m1", 0, Map.of("users", 5.0), T0, 0, null, 3),
                new StepRow("r-m1", 1, Map.of("users", 10.0), T0.plusSeconds(60), 0, null, 4),
                new StepRow("r-m2", 0, Map.of("users", 5.0), T0, 0, null, 5)), "steps-m");
        Instant end1 = T0.plusSeconds(60).plusNanos(123_456_000);
        steps.markEndedAll(List.of(new StepRepository.StepEnd("r-m1", 0, end1, 6),
                new StepRepository.StepEnd("r-m1", 1, T0.plusSeconds(120), 7),
                new StepRepository.StepEnd("r-m2", 0, T0.plusSeconds(30), 8),
                new StepRepository.StepEnd("r-m2", 9, T0.plusSeconds(30), 9),
                // older than the row it would copy: ignored
                new StepRepository.StepEnd("r-m2", 0, T0.plusSeconds(99), 4)));
        assertThat(steps.ofRun("r-m1")).extracting(StepRow::stepIndex, StepRow::endedAt, StepRow::version)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, end1, 6L),
                        org.assertj.core.groups.Tuple.tuple(1, T0.plusSeconds(120), 7L));
        assertThat(steps.ofRun("r-m2")).extracting(StepRow::stepIndex, StepRow::endedAt)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, T0.plusSeconds(30)));
        runs.markEndedAll(List.of(new RunRepository.RunEnd("r-m1", T0.plusSeconds(120), "COMPLETED", null, 10),
                new RunRepository.RunEnd("r-m2", T0.plusSeconds(30), "ABORTED", "stopped by hand, it's done", 11),
                new RunRepository.RunEnd("r-none", T0, "COMPLETED", null, 12)));
        assertThat(runs.find("r-m1")).get().extracting(RunRow::provider, RunRow::status, RunRow::endReason,
                RunRow::endedAt, RunRow::version).containsExactly("m-aws", "COMPLETED", null, T0.plusSeconds(120),
                RunRepository.DECLARED_BIT | RunRepository.ENDED_BIT | 10);
        assertThat(runs.find("r-m2")).get().extracting(RunRow::provider, RunRow::status, RunRow::endReason,
                RunRow::version).containsExactly("m-gcp", "ABORTED", "stopped by hand, it's done", RunRepository.ENDED_BIT | 11);
        assertThat(runs.find("r-none")).isEmpty();
    }

    @Test
    void samplesComeBackExactlyAndAReplayedTokenInsertsNothing() {
        SampleRepository samples = new SampleRepository(db.dataSource());
        List<SampleRow> batch = IntStream.range(0, 1000).mapToObj(i -> SampleRow.of("r-s", T0.plusNanos(i * 1000L),
                "vm-1", "cpu.cores", "GAUGE", i / 3.0, Map.of("core", Integer.toString(i % 2))))
                .toList();
        samples.insertBatch(batch, "r-s:0");
        samples.insertBatch(batch, "r-s:0");
        SampleRow summary = new SampleRow("r-s", T0, "k6", "http_req_duration", "SUMMARY", 12.0, Map.of(),
                "WINDOW", 50L, 1_000_000L, 12.0, 3.0, 40.0, Map.of("0.95", 33.5));
        samples.insertBatch(List.of(summary), "r-s:1");
        assertThat(samples.countOfRun("r-s")).isEqualTo(1001);
        assertThat(samples.ofRun("r-s", "cpu.cores", T0, T0.plusSeconds(1))).isEqualTo(batch);
        assertThat(samples.ofRun("r-s", "http_req_duration", T0, T0.plusSeconds(1))).containsExactly(summary);
    }

    @Test
    void samplesStraightIntoTheEngineComeBackExactlyWithSortedMapsAndTheirTokenDeduplicates(EmbeddedClickHouse ch) {
        org.junit.jupiter.api.Assumptions.assumeTrue(ch.embedded(), "the direct path needs the in-process engine");
        SampleRepository direct = new SampleRepository(db.dataSource(), new EngineInserts(ch.engine().orElseThrow(),
                db.name()));
        // Non-ASCII text, a 200-byte value (two-byte length prefix), labels given unsorted, a token with a quote.
        String longValue = "v".repeat(200);
        List<SampleRow> batch = IntStream.range(0, 300).mapToObj(i -> new SampleRow("r-é", T0.plusMillis(i),
                "vm-µ", "latency.µs", "GAUGE", i * 0.1, java.util.Collections.unmodifiableMap(
                        new java.util.LinkedHashMap<>(Map.of("zone", "ü-" + i % 3, "a", longValue, "m", "GET"))),
                i % 2 == 0 ? null : "WINDOW", i % 2 == 0 ? null : 7L, i % 2 == 0 ? null : 1_000_000L,
                i % 2 == 0 ? null : 1.5, i % 2 == 0 ? null : -0.0, i % 2 == 0 ? null : Double.MAX_VALUE,
                i % 2 == 0 ? Map.of() : Map.of("0.99", 3.25, "0.5", 1.0))).toList();
        direct.insertBatch(batch, "samples-0:0-299 it's");
        direct.insertBatch(batch, "samples-0:0-299 it's");
        assertThat(direct.countOfRun("r-é")).as("the same token twice stores the batch once").isEqualTo(300);
        assertThat(direct.ofRun("r-é", "latency.µs", T0, T0.plusSeconds(1))).isEqualTo(batch);
        assertThat(direct.access.query("SELECT DISTINCT toString(mapKeys(labels)), toString(mapKeys(summary_quantiles))"
                + " FROM samples WHERE run_id = ? AND summary_count = 7", rs -> rs.getString(1) + rs.getString(2),
                "r-é")).containsExactly("['a','m','zone']['0.5','0.99']");

        // A batch without summaries is written with the points' first columns only: the others read back as a plain
        // sample's (NULL, an empty map), and its token deduplicates as well.
        List<SampleRow> plain = IntStream.range(0, 200).mapToObj(i -> SampleRow.of("r-é", T0.plusSeconds(5)
                .plusMillis(i), "vm-µ", "cpu.µ", "COUNTER", -i * 0.5, Map.of("core", Integer.toString(i % 4))))
                .toList();
        direct.insertBatch(plain, "samples-0:300-499");
        direct.insertBatch(plain, "samples-0:300-499");
        assertThat(direct.countOfRun("r-é")).isEqualTo(500);
        assertThat(direct.ofRun("r-é", "cpu.µ", T0, T0.plusSeconds(10))).isEqualTo(plain);
        assertThat(direct.access.query("SELECT countIf(summary_window IS NULL AND summary_count IS NULL"
                + " AND summary_max IS NULL AND empty(summary_quantiles)) FROM sample_points WHERE run_id = ?",
                rs -> rs.getLong(1), "r-é")).containsExactly(150L + 200L);
    }

    @Test
    void theTokenNotTheContentIdentifiesABatch() {
        // Block-hash deduplication alone would pass for identical re-sends; only a token that reaches the server
        // makes a re-formed batch (other rows, same topic-partition-offset range) a no-op.
        SampleRepository samples = new SampleRepository(db.dataSource());
        List<SampleRow> first = IntStream.range(0, 100).mapToObj(i -> SampleRow.of("r-t", T0.plusMillis(i), "vm-1",
                "cpu.cores", "GAUGE", i, Map.of())).toList();
        // The re-formed batch has a summary, so it is written with more columns than the first: still the token.
        List<SampleRow> other = IntStream.range(0, 7).mapToObj(i -> new SampleRow("r-t", T0.plusSeconds(60 + i),
                "vm-2", "mem.bytes", "GAUGE", -i, Map.of(), i == 0 ? "WINDOW" : null, i == 0 ? 3L : null, null, null,
                null, null, Map.of())).toList();
        samples.insertBatch(first, "samples-0:0-99");
        samples.insertBatch(other, "samples-0:0-99");
        assertThat(samples.countOfRun("r-t")).isEqualTo(100);
        samples.insertBatch(other, "samples-0:100-106");
        samples.insertBatch(first, null);
        assertThat(samples.countOfRun("r-t")).as("a new token and no token both insert").isEqualTo(100 + 7 + 100);
    }

    @Test
    void stepsAndDerivedRowsKeepTheirHighestVersion() throws java.sql.SQLException {
        keepHighestVersions("r-d", null);
    }

    @Test
    void derivedRowsStraightIntoTheEngineKeepTheirHighestVersion(EmbeddedClickHouse ch) throws java.sql.SQLException {
        org.junit.jupiter.api.Assumptions.assumeTrue(ch.embedded(), "the direct path needs the in-process engine");
        keepHighestVersions("r-direct", new EngineInserts(ch.engine().orElseThrow(), db.name()));
    }

    /** Every derived repository, its inserts through the driver ({@code direct} null) or straight into the engine. */
    private void keepHighestVersions(String run, EngineInserts direct) throws java.sql.SQLException {
        StepRepository steps = new StepRepository(db.dataSource(), direct);
        StepRow step = new StepRow(run, 0, Map.of("users", 10.0), T0, 30_000_000L, null, 0);
        steps.insertBatch(List.of(step), null);
        steps.markEnded(run, 0, T0.plusSeconds(120), 1);
        assertThat(steps.ofRun(run)).containsExactly(new StepRow(run, 0, Map.of("users", 10.0), T0, 30_000_000L,
                T0.plusSeconds(120), 1));

        StepAggregateRepository aggregates = new StepAggregateRepository(db.dataSource(), direct);
        StepAggregate v1 = aggregate(run, 1, 0.40);
        StepAggregate v2 = aggregate(run, 2, 0.42);
        aggregates.insertBatch(List.of(v1), run + "-agg-v1");
        aggregates.insertBatch(List.of(v2), run + "-agg-v2");
        aggregates.insertBatch(List.of(v1), run + "-agg-v1-replayed");
        assertThat(aggregates.ofRun(run)).containsExactly(v2);
        assertThat(aggregates.ofRun(run, "cpu.cores")).containsExactly(v2);

        StepVerdictRepository verdicts = new StepVerdictRepository(db.dataSource(), direct);
        StepVerdict verdict = StepVerdict.newBuilder().setRunId(run).setStepIndex(0).setLoad(Map.of("users", 10.0))
                .setX(10.0).setPassed(false).setOutcomes(List.of(RuleOutcome.newBuilder().setRule(SloRule.newBuilder()
                        .setName("p95").setMetric("http_req_duration").setStatistic("p95").setComparator(Comparator.LE)
                        .setThreshold(500.0).setSource("k6").build()).setObserved(612.0).setPassed(false).build()))
                .setContaminated(true).setContaminationReason("llm container used 8.6 cores").setBottleneck("cpu")
                .setVersion(3).build();
        verdicts.insertBatch(List.of(verdict), null);
        assertThat(verdicts.ofRun(run)).containsExactly(verdict);
        // an inferred step not judged (no rules): its bounds and warm-up ride on its verdict
        StepVerdict amended = StepVerdict.newBuilder(verdict).setPassed(true).setOutcomes(List.of()).setVersion(4)
                .setLateCount(17).setJudged(false).setWindowStart(T0).setWindowEnd(T0.plusSeconds(60))
                .setWarmupMicros(10_000_000L).build();
        verdicts.insertBatch(List.of(amended), null);
        assertThat(verdicts.ofRun(run)).containsExactly(amended);
        // a step that left the timeline: its withdrawn row supersedes the verdict, and no read shows either
        StepVerdict second = StepVerdict.newBuilder().setRunId(run).setStepIndex(1).setLoad(Map.of("users", 20.0))
                .setX(20.0).setPassed(true).setVersion(1).build();
        verdicts.insertBatch(List.of(second), null);
        assertThat(verdicts.ofRuns(List.of(run))).containsExactly(amended, second);
        StepVerdict withdrawn = StepVerdict.newBuilder().setRunId(run).setStepIndex(1).setLoad(Map.of())
                .setPassed(false).setVersion(2).setWithdrawn(true).build();
        verdicts.insertBatch(List.of(withdrawn), null);
        assertThat(verdicts.ofRun(run)).containsExactly(amended);
        assertThat(verdicts.ofRuns(List.of(run))).containsExactly(amended);
        try (var c = db.dataSource().getConnection(); var rs = c.createStatement().executeQuery(
                "SELECT count() FROM step_verdicts FINAL WHERE run_id = '" + run + "' AND withdrawn")) {
            rs.next();
            assertThat(rs.getLong(1)).as("the withdrawn row is stored, for SQL readers").isEqualTo(1);
        }

        RunLatenessRepository lateness = new RunLatenessRepository(db.dataSource(), direct);
        RunLateness early = RunLateness.newBuilder().setRunId(run).setLateSamples(3).setBeyondLatenessSamples(0)
                .setUpdatedAt(T0.plusSeconds(60)).setVersion(1).build();
        RunLateness later = RunLateness.newBuilder().setRunId(run).setLateSamples(17).setBeyondLatenessSamples(2)
                .setUpdatedAt(T0.plusSeconds(90)).setVersion(2).build();
        lateness.insertBatch(List.of(later), null);
        lateness.insertBatch(List.of(early), null);
        assertThat(lateness.ofRun(run)).containsExactly(later);

        CapacityFitRepository fits = new CapacityFitRepository(db.dataSource(), direct);
        CapacityFit fit = CapacityFit.newBuilder().setRunId(run).setSource("vm-1").setMetric("cpu.cores")
                .setModel("segmented-1").setModelVersion("1").setLoadExpression("users").setStepsUsed(6)
                .setSegments(List.of(Segment.newBuilder().setFromX(0.0).setToX(18.0).setIntercept(0.35)
                                .setSlope(0.006).build(),
                        Segment.newBuilder().setFromX(18.0).setToX(20.0).setIntercept(-8.5).setSlope(0.5)
                                .setSlopeStdErr(0.01).build()))
                .setBreakpoints(List.of(Breakpoint.newBuilder().setX(18.0).setLower95(Double.NaN).setUpper95(19.0)
                        .build()))
                .setBreakpointPValue(0.001).setRSquared(0.98).setCliff(true).setCliffStepIndex(5).setCapacity(2.0)
                .setMargin(0.6).setSafeCapacityX(141.7).setBottleneck(true).setFittedAt(T0.plusSeconds(900))
                .setVersion(4).build();
        fits.insertBatch(List.of(fit), null);
        assertThat(fits.ofRun(run)).containsExactly(fit);

        RunConclusionRepository conclusions = new RunConclusionRepository(db.dataSource(), direct);
        assertThat(conclusions.latest(run)).isEmpty();
        RunConclusion first = RunConclusion.newBuilder().setRunId(run).setMaxStableX(10.0).setMaxStableStepIndex(0)
                .setStepsJudged(1).setStepsSkipped(0).setMargin(0.6).setRunClosed(false)
                .setModel("caplab-run-conclusion/1").setConcludedAt(T0.plusSeconds(60)).setVersion(1).build();
        RunConclusion concluded = RunConclusion.newBuilder().setRunId(run).setMaxStableX(18.0)
                .setMaxStableStepIndex(3).setFirstFailingX(19.0).setFirstFailingStepIndex(4).setStepsJudged(4)
                .setStepsSkipped(1).setBottleneck(RunBottleneck.newBuilder().setSource("vm-1").setMetric("cpu.cores")
                        .setRule(BottleneckRule.SMALLEST_SAFE_CAPACITY).setValue(18.5).setRole("sut").build())
                .setMargin(0.6).setResources(List.of(ResourceEstimate.newBuilder().setSource("vm-1")
                                .setMetric("cpu.cores").setIntercept(0.1).setSlope(0.02).setSlopeVariance(4e-6)
                                .setCovariance(-1e-5).setResidualStdErr(0.01).setDegreesOfFreedom(3).setPreKneeSteps(5)
                                .setRSquared(0.98).setFromX(2.0).setToX(20.0).setCeiling(4.0).setSafeCapacityX(18.5)
                                .setSafeCapacityStdErr(0.7).setSafeCapacityLower95(17.1).setSafeCapacityUpper95(19.9)
                                .setCappedByCliff(true).setKneeX(19.0).setCliff(true).setCliffStepIndex(4)
                                .setLastStableX(18.5).setRole("sut").build(),
                        ResourceEstimate.newBuilder().setSource("vm-1").setMetric("mem.bytes").setIntercept(1e9)
                                .setSlope(1e6).setDegreesOfFreedom(3).setPreKneeSteps(5).setFromX(2.0).setToX(20.0)
                                .build()))
                .setRunClosed(true).setModel("caplab-run-conclusion/1").setConcludedAt(T0.plusSeconds(900))
                .setVersion(7).setWarnings(List.of(RunWarning.newBuilder().setKind("SAMPLES_AFTER_END")
                        .setMessage("samples after the end").build()))
                .setRulesFrom("default")
                .setThroughputLimit(RunThroughputLimit.newBuilder().setKneeX(150.0).setKneeLower95(140.0)
                        .setPlateauRatePerSecond(3000.0).setSlopeBeforePerX(20.0).setSlopeAfterPerX(0.5)
                        .setBreakpointPValue(1e-6).setStepsUsed(9).setFittedAt(T0.plusSeconds(840))
                        .setGeneratorSaturatedAtX(170.0).setGeneratorCpuPercent(93.5).build())
                .setEgressCeiling(RunEgressCeiling.newBuilder().setMbps(80.0).setSource("MEASURED")
                        .setMeasuredAt(T0.plusSeconds(30)).build())
                .build();
        conclusions.insertBatch(List.of(concluded), null);
        conclusions.insertBatch(List.of(first), null);
        assertThat(conclusions.latest(run)).contains(concluded);
    }

    private static StepAggregate aggregate(String run, long version, double sustained) {
        return StepAggregate.newBuilder().setRunId(run).setStepIndex(0).setLoad(Map.of("users", 10.0)).setX(10.0)
                .setSource("vm-1").setMetric("cpu.cores").setKind(SampleKind.GAUGE).setCount(120).setWarmupCount(30)
                .setSum(48.0).setMin(0.1).setMax(0.9).setMean(0.4).setSustained(sustained).setPeak(0.9)
                .setQuantiles(Map.of("0.5", 0.4, "0.95", 0.8)).setRatePerSecond(null).setBaselineDelta(0.05)
                .setWindowStart(T0).setWindowEnd(T0.plusSeconds(120)).setContaminated(false).setVersion(version)
                .setLateCount(3).build();
    }

    @Test
    void annotationsAndAlertsCollapseReplays() {
        annotationsAndAlerts("r-n", null);
    }

    @Test
    void annotationsAndAlertsStraightIntoTheEngineCollapseReplays(EmbeddedClickHouse ch) {
        org.junit.jupiter.api.Assumptions.assumeTrue(ch.embedded(), "the direct path needs the in-process engine");
        annotationsAndAlerts("r-n-direct", new EngineInserts(ch.engine().orElseThrow(), db.name()));
    }

    private void annotationsAndAlerts(String run, EngineInserts direct) {
        AnnotationRepository annotations = new AnnotationRepository(db.dataSource(), direct);
        Annotation note = Annotation.newBuilder().setRunId(run).setAt(T0).setText("stopped competing container")
                .setLabels(Map.of("by", "ops")).build();
        annotations.insertBatch(List.of(note), null);
        annotations.insertBatch(List.of(note), null);
        assertThat(annotations.ofRun(run)).containsExactly(note);

        AlertRepository alerts = new AlertRepository(db.dataSource(), direct);
        Alert alert = Alert.newBuilder().setRunId(run).setAt(T0).setKind(AlertKind.CLIFF_DETECTED).setStepIndex(null)
                .setMessage("cpu 45% -> 88% between 18 and 19").build();
        alerts.insertBatch(List.of(alert, alert), null);
        assertThat(alerts.ofRun(run)).containsExactly(alert);
    }

    /**
     * The direct path is taken, not just a path that stores the same rows: after the table's first insert (whose
     * schema the driver describes once), inserts borrow no driver connection at all.
     */
    @Test
    void directInsertsBorrowNoDriverConnectionAfterTheTablesFirst(EmbeddedClickHouse ch) {
        org.junit.jupiter.api.Assumptions.assumeTrue(ch.embedded(), "the direct path needs the in-process engine");
        java.util.concurrent.atomic.AtomicInteger borrowed = new java.util.concurrent.atomic.AtomicInteger();
        javax.sql.DataSource counting = (javax.sql.DataSource) java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {javax.sql.DataSource.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getConnection")) {
                        borrowed.incrementAndGet();
                    }
                    try {
                        return method.invoke(db.dataSource(), args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        StepAggregateRepository aggregates = new StepAggregateRepository(counting,
                new EngineInserts(ch.engine().orElseThrow(), db.name()));
        StepAggregate v1 = aggregate("r-borrow", 1, 0.40);
        StepAggregate v2 = aggregate("r-borrow", 2, 0.42);
        aggregates.insertBatch(List.of(v1), "r-borrow-v1");
        assertThat(borrowed.get()).as("the table's first insert describes it").isEqualTo(1);

        aggregates.insertBatch(List.of(v2), "r-borrow-v2");
        aggregates.insertBatch(List.of(v1), "r-borrow-v1-replayed");
        assertThat(borrowed.get()).as("later inserts skip the driver").isEqualTo(1);
        assertThat(aggregates.ofRun("r-borrow")).containsExactly(v2);
    }

    @Test
    void aDirectInsertTheEngineRefusesIsAQueryErrorWithItsCode(EmbeddedClickHouse ch) throws java.sql.SQLException {
        org.junit.jupiter.api.Assumptions.assumeTrue(ch.embedded(), "the direct path needs the in-process engine");
        try (var c = db.dataSource().getConnection()) {
            c.createStatement().execute("CREATE TABLE positive_only (x Int32, CONSTRAINT positive CHECK x > 0)"
                    + " ENGINE = MergeTree ORDER BY x");
        }
        // the driver encodes -1 as any Int32; only the engine's constraint refuses it
        var refused = new TableAccess<>(db.dataSource(), new RowCodec<Integer>("positive_only", List.of("x"), false,
                (p, r) -> p.add(r), rs -> rs.getInt(1)), new EngineInserts(ch.engine().orElseThrow(), db.name()));
        assertThatThrownBy(() -> refused.insertBatch(List.of(-1), null))
                .isInstanceOfSatisfying(StoreQueryException.class, e -> assertThat(e.clickHouseCode()).isEqualTo(469));
        assertThat(refused.insertBatch(List.of(1), null)).isEqualTo(1);
    }

    @Test
    void aRejectedInsertIsAQueryErrorWithItsCode() {
        var broken = new dev.caplab.store.access.TableAccess<>(db.dataSource(), new RowCodec<String>("no_such_table",
                List.of("x"), false, (p, r) -> p.add(r), rs -> rs.getString(1)));
        assertThatThrownBy(() -> broken.insertBatch(List.of("x"), null))
                .isInstanceOfSatisfying(StoreQueryException.class, e -> assertThat(e.clickHouseCode()).isEqualTo(60));
    }
}
