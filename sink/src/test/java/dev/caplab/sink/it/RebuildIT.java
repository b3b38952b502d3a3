package dev.caplab.sink.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.store.access.AlertRepository;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.RunConclusionRepository;
import dev.caplab.store.access.StepAggregateRepository;
import dev.caplab.store.access.StepVerdictRepository;
import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.store.testing.TestDatabase;
import dev.caplab.streams.StreamsRunner;
import dev.caplab.streams.StreamsSettings;
import dev.caplab.streams.SyntheticRun;
import dev.caplab.streams.contamination.ContaminationRule;
import dev.caplab.streams.rebuild.Generation;
import dev.caplab.streams.rebuild.Rebuild;
import dev.caplab.streams.rebuild.RebuildReport;
import dev.caplab.streams.rebuild.TopicOffsets;
import dev.caplab.sink.ClickHouseSink;
import dev.caplab.sink.SinkSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code caplab rebuild} re-derives every projection from the raw topics and gives what the live run gave (issue #6,
 * point 6). A stepped run goes live through the topology and the sink; its derived rows (FINAL, as the store reads
 * them) are the expected side. A rebuild with the same analysis, sunk by a new group into a fresh database, must
 * give the same rows; a rebuild with a changed analysis, sunk into the live database by the live group, must
 * replace the live rows — exactly the rows its own fresh projection holds, nothing of the live run left.
 */
class RebuildIT {

    private static final String RUN = "rebuild-it";
    /** CPU outside the system under test from this step on: clean at the default 1-core threshold, not at 0.5. */
    private static final int FIRST_OUTSIDE_STEP = 6;
    private static final double OUTSIDE_CORES = 0.8;
    private static final double CHANGED_THRESHOLD_CORES = 0.5;
    private static final String LIVE_GROUP = "rebuild-it-live";
    private static final List<String> DERIVED = List.of(TopicCatalog.STEP_AGGREGATES, TopicCatalog.VERDICTS,
            TopicCatalog.FITS, TopicCatalog.ALERTS, TopicCatalog.CONCLUSIONS);
    @RegisterExtension
    static final ItEnvironment ENV = new ItEnvironment();
    private static final List<TestDatabase> FRESH = new ArrayList<>();
    /** Every rebuild so far, in order: the live group's sink must write all their output when it next runs. */
    private static final List<RebuildReport> REBUILDS = new ArrayList<>();
    private static Projection live;

    /** The derived rows of the run in one database, read as the store reads them (FINAL). */
    record Projection(List<StepAggregate> aggregates, List<StepVerdict> verdicts, List<CapacityFit> fits,
                      List<Alert> alerts, List<RunConclusion> conclusions) {

        static Projection of(DataSource ds) {
            return new Projection(new StepAggregateRepository(ds).ofRun(RUN), new StepVerdictRepository(ds).ofRun(RUN),
                    new CapacityFitRepository(ds).ofRun(RUN), new AlertRepository(ds).ofRun(RUN),
                    new RunConclusionRepository(ds).ofRun(RUN));
        }

        /** Every versioned row's version. */
        List<Long> versions() {
            List<Long> out = new ArrayList<>();
            aggregates.forEach(r -> out.add(r.getVersion()));
            verdicts.forEach(r -> out.add(r.getVersion()));
            fits.forEach(r -> out.add(r.getVersion()));
            conclusions.forEach(r -> out.add(r.getVersion()));
            return out;
        }
    }

    @BeforeAll
    static void liveRun() throws Exception {
        try (StreamsRunner streams = StreamsRunner.start(PipelineIT.streamsSettings(ENV.bootstrap(),
                ENV.dir().resolve("live-state")).withApplicationId("rebuild-it-streams"));
                ClickHouseSink sink = ClickHouseSink.start(sinkSettings(LIVE_GROUP, SinkSettings.TOPICS),
                        ENV.db().dataSource())) {
            streams.awaitRunning(Duration.ofSeconds(60));
            List<SyntheticRun.Input> inputs = inputs();
            PipelineIT.produce(ENV.bootstrap(), RUN, inputs);
            var fits = new CapacityFitRepository(ENV.db().dataSource());
            ItEnvironment.await(Duration.ofSeconds(180), () -> fits.ofRun(RUN).stream().anyMatch(f -> f.getMetric()
                    .equals("cpu.cores") && f.getStepsUsed() == SyntheticRun.STEPS),
                    () -> ": streams " + streams.state() + ", sink failure " + sink.failure());
            // The last step closed; the run closes a wall-clock grace later, in the same transaction as its last
            // derived records: once its closed conclusion is stored, every record streams will send is counted.
            var conclusions = new RunConclusionRepository(ENV.db().dataSource());
            ItEnvironment.await(Duration.ofSeconds(120), () -> conclusions.latest(RUN)
                    .map(RunConclusion::getRunClosed).orElse(false), () -> ": streams " + streams.state());
            long derived = DERIVED.stream().mapToLong(streams::recordsSentTo).sum();
            long raw = inputs.stream().mapToLong(in -> in.lifecycle() != null ? 1 : in.samples().size()).sum();
            awaitRows(sink, LIVE_GROUP, SinkSettings.TOPICS, raw + derived);
        }
        live = Projection.of(ENV.db().dataSource());
        // Not an empty expected side: every step judged, the cpu fit over all steps, the contamination still clean.
        assertThat(live.verdicts()).hasSize(SyntheticRun.STEPS).noneMatch(StepVerdict::getContaminated);
        assertThat(cpuFit(live).getStepsUsed()).isEqualTo(SyntheticRun.STEPS);
        assertThat(live.aggregates()).hasSizeGreaterThan(3 * SyntheticRun.STEPS);
        assertThat(live.versions()).allMatch(v -> Generation.of(v).equals(Generation.LIVE));
    }

    @AfterAll
    static void dropFreshDatabases() {
        FRESH.forEach(EmbeddedClickHouse.shared()::drop);
    }

    @Test
    void rebuildIntoAFreshDatabaseGivesTheLiveRows() throws Exception {
        Map<TopicPartition, Long> before = endOffsets(DERIVED);
        RebuildReport report = rebuild(baseSettings());
        Projection rebuilt = project(report, before);

        // Exact, floating sums and fits included: the rebuild reads the same records at the same offsets, the sample
        // buffer is keyed by (run, time, partition, offset, index), so every sum adds the same doubles in the same
        // order and every fit sees the same points. A tolerance would hide a nondeterminism, not a rounding.
        assertThat(withoutVersions(rebuilt.aggregates())).containsExactlyElementsOf(withoutVersions(live.aggregates()));
        assertThat(withoutVersions(rebuilt.verdicts())).containsExactlyElementsOf(withoutVersions(live.verdicts()));
        assertThat(withoutVersions(rebuilt.fits())).containsExactlyElementsOf(withoutVersions(live.fits()));
        assertThat(withoutVersions(rebuilt.conclusions())).hasSize(1)
                .containsExactlyElementsOf(withoutVersions(live.conclusions()));
        assertThat(rebuilt.alerts()).containsExactlyElementsOf(live.alerts());
        // Every rebuilt row under the rebuild's generation, so it outranks the live row it equals. Not the same local
        // revisions: amendments are throttled per run on the wall clock, so how often a window was revised depends on
        // when the ticks fell between records (live, records trickle in; a rebuild reads them all at once). The
        // newest rows, compared exactly above, are what the derivation decides.
        assertThat(rebuilt.versions()).isNotEmpty()
                .allMatch(v -> Generation.of(v).equals(report.generation()));
        assertThat(Collections.min(rebuilt.versions())).isGreaterThan(Collections.max(live.versions()));
        assertThat(report.generation().value()).isGreaterThan(Generation.LIVE.value());
        // Its group, changelogs and local state are gone: a rebuild leaves no copy of every run's state behind.
        assertThat(baseSettings().stateDir().resolve(report.applicationId())).doesNotExist();
        try (Admin admin = admin()) {
            ItEnvironment.await(Duration.ofSeconds(30), () -> leftovers(admin, report.applicationId()).isEmpty(),
                    () -> ": left " + leftovers(admin, report.applicationId()));
        }
    }

    private static List<String> leftovers(Admin admin, String applicationId) {
        try {
            List<String> out = new ArrayList<>(admin.listTopics().names().get().stream()
                    .filter(t -> t.startsWith(applicationId)).toList());
            admin.listGroups().all().get().stream().map(g -> g.groupId()).filter(applicationId::equals)
                    .forEach(out::add);
            return out;
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("cannot list topics and groups", e);
        }
    }

    @Test
    void aChangedAnalysisRebuiltIntoTheSameDatabaseReplacesTheLiveRows() throws Exception {
        StreamsSettings changed = baseSettings().withTopology(baseSettings().topology().withContamination(
                new ContaminationRule("cpu.cores", "sut", "false", CHANGED_THRESHOLD_CORES)));
        Map<TopicPartition, Long> before = endOffsets(DERIVED);
        RebuildReport report = rebuild(changed);
        Projection expected = project(report, before);

        // The live group picks up where it stopped: every rebuild's output since, into the live database.
        try (ClickHouseSink sink = ClickHouseSink.start(sinkSettings(LIVE_GROUP, SinkSettings.TOPICS),
                ENV.db().dataSource())) {
            awaitRows(sink, LIVE_GROUP, SinkSettings.TOPICS, REBUILDS.stream()
                    .mapToLong(RebuildIT::derivedRecords).sum());
        }
        Projection replaced = Projection.of(ENV.db().dataSource());

        // The analysis change shows: the steps with outside CPU are contaminated now and left out of the cpu fit, whose
        // last refit comes earlier — a lower revision than the live fit's, so only the generation can make it win.
        assertThat(expected.verdicts()).filteredOn(v -> v.getStepIndex() >= FIRST_OUTSIDE_STEP).hasSize(2)
                .allMatch(StepVerdict::getContaminated);
        assertThat(cpuFit(expected).getStepsUsed()).isEqualTo(FIRST_OUTSIDE_STEP);
        assertThat(Generation.localOf(cpuFit(expected).getVersion())).isLessThan(cpuFit(live).getVersion());

        // The live database now reads exactly as the changed analysis's own projection: every row replaced (versions
        // of the new generation only), none of the live run's or an earlier rebuild's left, none twice.
        assertThat(replaced.aggregates()).containsExactlyElementsOf(expected.aggregates());
        assertThat(replaced.verdicts()).containsExactlyElementsOf(expected.verdicts());
        assertThat(replaced.fits()).containsExactlyElementsOf(expected.fits());
        assertThat(replaced.conclusions()).containsExactlyElementsOf(expected.conclusions());
        assertThat(replaced.versions()).allMatch(v -> Generation.of(v).equals(report.generation()));
        // Alerts carry no version (the whole alert is the key): the rebuild's are added beside the live ones.
        assertThat(replaced.alerts()).containsAll(expected.alerts());
    }

    /** The live run's settings: a rebuild must use the analysis the live app used, or the one that replaces it. */
    private static StreamsSettings baseSettings() {
        return PipelineIT.streamsSettings(ENV.bootstrap(), ENV.dir().resolve("rebuild-state"));
    }

    private static RebuildReport rebuild(StreamsSettings settings) throws InterruptedException {
        RebuildReport report = Rebuild.run(settings, Duration.ofMinutes(3));
        System.out.println(report.describe());
        REBUILDS.add(report);
        assertThat(report.inputRecords()).isEqualTo(inputs().size());
        return report;
    }

    /** A new group sinks only what the rebuild wrote (derived topics from {@code from}) into a fresh database. */
    private static Projection project(RebuildReport report, Map<TopicPartition, Long> from) throws Exception {
        TestDatabase db = EmbeddedClickHouse.shared().freshDatabase("RebuildIT_" + FRESH.size());
        FRESH.add(db);
        String group = "rebuild-it-fresh-" + FRESH.size();
        try (Admin admin = admin()) {
            admin.alterConsumerGroupOffsets(group, from.entrySet().stream().collect(Collectors.toMap(
                    Map.Entry::getKey, e -> new OffsetAndMetadata(e.getValue())))).all().get();
        }
        try (ClickHouseSink sink = ClickHouseSink.start(sinkSettings(group, DERIVED), db.dataSource())) {
            awaitRows(sink, group, DERIVED, derivedRecords(report));
        }
        return Projection.of(db.dataSource());
    }

    private static long derivedRecords(RebuildReport report) {
        return report.derivedRecords().values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Waits until the sink has written {@code rows} and committed every record of its topics, then checks it wrote no
     * more: nothing else is in its topics.
     */
    private static void awaitRows(ClickHouseSink sink, String group, List<String> topics, long rows)
            throws InterruptedException {
        ItEnvironment.await(Duration.ofSeconds(120), () -> sink.rowsWritten() >= rows,
                () -> ": sink wrote " + sink.rowsWritten() + " of " + rows + " rows, failure " + sink.failure());
        ENV.awaitCommittedAll(group, topics, Duration.ofSeconds(60));
        assertThat(sink.rowsWritten()).isEqualTo(rows);
        assertThat(sink.failure()).isNull();
    }

    private static SinkSettings sinkSettings(String group, List<String> topics) {
        return new SinkSettings(ENV.bootstrap(), group, topics, 2000, Duration.ofMillis(200));
    }

    /** The synthetic run, with CPU of a process outside the system under test in its last steps. */
    private static List<SyntheticRun.Input> inputs() {
        List<SyntheticRun.Input> out = new ArrayList<>();
        int step = -1;
        for (SyntheticRun.Input in : SyntheticRun.inputs(RUN)) {
            if (in.lifecycle() instanceof StepStarted s) {
                step = s.getStepIndex();
            } else if (in.lifecycle() instanceof StepEnded) {
                step = -1;
            }
            if (in.samples() == null || step < FIRST_OUTSIDE_STEP) {
                out.add(in);
                continue;
            }
            List<Sample> batch = new ArrayList<>(in.samples());
            in.samples().stream().filter(s -> s.getMetric().toString().equals("cpu.cores")).forEach(s -> batch.add(
                    Sample.newBuilder(s).setSource("llm").setValue(OUTSIDE_CORES)
                            .setLabels(Map.of("sut", "false")).build()));
            out.add(new SyntheticRun.Input(null, batch));
        }
        return out;
    }

    private static CapacityFit cpuFit(Projection p) {
        return p.fits().stream().filter(f -> f.getMetric().equals("cpu.cores") && f.getSource().equals("host")).findFirst()
                .orElseThrow();
    }

    /** A row's fields but its version, by schema field, so rows of two generations compare field by field. */
    private static List<Map<String, Object>> withoutVersions(List<? extends SpecificRecord> rows) {
        return rows.stream().map(r -> {
            Map<String, Object> fields = new LinkedHashMap<>();
            for (Schema.Field f : r.getSchema().getFields()) {
                if (!f.name().equals("version")) {
                    fields.put(f.name(), r.get(f.pos()));
                }
            }
            return fields;
        }).toList();
    }

    private static Map<TopicPartition, Long> endOffsets(List<String> topics) throws InterruptedException {
        try (Admin admin = admin()) {
            return TopicOffsets.latest(admin, topics);
        }
    }

    private static Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, ENV.bootstrap());
        return Admin.create(p);
    }
}
