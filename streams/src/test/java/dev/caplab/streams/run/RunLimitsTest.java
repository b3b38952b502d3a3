package dev.caplab.streams.run;

import static dev.caplab.streams.Events.gauge;
import static dev.caplab.streams.Events.sample;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.topic.DeadLetterHeaders;
import dev.caplab.schema.vocabulary.InputAlerts;
import dev.caplab.streams.CaplabTopology;
import dev.caplab.streams.Events;
import dev.caplab.streams.PoisonInputs;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.TopologySettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each {@link RunLimits} limit at and beyond it; state records bounded and deleted after the allowed lateness. */
class RunLimitsTest {

    @TempDir
    Path stateDir;

    @Test
    void aLoadLevelSampledEveryMillisecondKeepsItsChangesOnlyAndIsStillStepped() {
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults(), stateDir)) {
            for (PoisonInputs.Input in : PoisonInputs.levelsRun()) {
                pipe(t, in);
            }
            t.advanceWallClock(Duration.ofSeconds(31));
            // 5 plateaus of 40,000 samples each: 5 changes, 21 bytes each (metric "vus", time, level), beside the
            // closed steps' marks and judgements; 200,000 kept samples would be over 4 MB.
            assertThat(stateBytes(t, PoisonInputs.LEVELS_RUN)).as("bytes of the run's state record")
                    .isLessThan(1_500);
            assertThat(t.verdicts.readValuesToList()).hasSize(PoisonInputs.LEVEL_STEPS);
            assertThat(t.deadLetter.isEmpty()).isTrue();
        }
    }

    @Test
    void samplesAtEachLimitAreAggregatedAndBeyondItAreLeftOutWithADeadLetterAndOneAlert() {
        RunLimits l = RunLimits.defaults();
        Map<String, Sample> atLimit = new HashMap<>();
        Map<String, Sample> beyond = new HashMap<>();
        atLimit.put("metric", gauge("host", "m".repeat(l.sample().maxNameBytes()), 1, 1));
        beyond.put("metric", gauge("host", "m".repeat(l.sample().maxNameBytes() + 1), 1, 1));
        atLimit.put("source", gauge("s".repeat(l.sample().maxNameBytes()), "cpu.cores", 1, 1));
        beyond.put("source", gauge("s".repeat(l.sample().maxNameBytes() + 1), "cpu.cores", 1, 1));
        atLimit.put("label key", labelled(Map.of("k".repeat(l.sample().maxLabelKeyBytes()), "v")));
        beyond.put("label key", labelled(Map.of("k".repeat(l.sample().maxLabelKeyBytes() + 1), "v")));
        // 'é' is two UTF-8 bytes: the limit counts bytes, not characters.
        atLimit.put("label value", labelled(Map.of("k", "é".repeat(l.sample().maxLabelValueBytes() / 2))));
        beyond.put("label value", labelled(Map.of("k", "é".repeat(l.sample().maxLabelValueBytes() / 2) + "v")));
        atLimit.put("labels", labelled(labels(l.sample().maxLabelsPerSample())));
        beyond.put("labels", labelled(labels(l.sample().maxLabelsPerSample() + 1)));
        // four labels whose keys ("k0".."k3") and values add up to exactly the per-sample total
        int valueBytes = l.sample().maxLabelBytesPerSample() / 4 - 2;
        atLimit.put("labels take", labelled(Map.of("k0", "v".repeat(valueBytes), "k1", "v".repeat(valueBytes),
                "k2", "v".repeat(valueBytes), "k3", "v".repeat(valueBytes))));
        beyond.put("labels take", labelled(Map.of("k0", "v".repeat(valueBytes), "k1", "v".repeat(valueBytes),
                "k2", "v".repeat(valueBytes), "k3", "v".repeat(valueBytes + 1))));
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults(), stateDir)) {
            for (String what : atLimit.keySet()) {
                endedRunWith(t, "at-" + what.replace(' ', '-'), atLimit.get(what));
                endedRunWith(t, "beyond-" + what.replace(' ', '-'), beyond.get(what));
            }
            t.advanceWallClock(Duration.ofSeconds(31));
            List<StepAggregate> aggregates = t.aggregates.readValuesToList();
            List<Alert> alerts = t.alerts.readValuesToList();
            List<TestRecord<String, byte[]>> dead = t.deadLetter.readRecordsToList();
            for (String what : atLimit.keySet()) {
                String at = "at-" + what.replace(' ', '-');
                String over = "beyond-" + what.replace(' ', '-');
                assertThat(aggregates).as(at).anyMatch(a -> a.getRunId().equals(at) && a.getCount() == 1);
                assertThat(aggregates).as(over + ": its only sample was left out").noneMatch(a -> a.getRunId()
                        .equals(over));
                assertThat(dead).as(over).anyMatch(r -> r.key().equals(over)
                        && header(r, DeadLetterHeaders.REASON).contains(what));
                assertThat(alerts.stream().filter(a -> a.getRunId().equals(over))).as(over).hasSize(1)
                        .allMatch(a -> a.getMessage().startsWith(InputAlerts.REJECTED) && a.getStepIndex() == null);
            }
            assertThat(dead).noneMatch(r -> r.key().startsWith("at-"));
        }
    }

    @Test
    void levelChangesBeyondTheLimitAreIgnoredForInferenceAndAlertedOnce() {
        TopologySettings s = TopologySettings.defaults().withLimits(limits(10, RunLimits.DEFAULT_MAX_STATE_BYTES));
        String run = "run-ramp";
        try (TopologyFixture t = new TopologyFixture(s, stateDir)) {
            List<Sample> batch = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                batch.add(gauge("k6", "vus", i, i + 1)); // 30 changes, one per second
            }
            t.samples(run, batch);
            t.samples(run, List.of(gauge("k6", "vus", 40, 99)));
            List<Alert> alerts = t.alerts.readValuesToList();
            assertThat(alerts).hasSize(1).allMatch(a -> a.getMessage().startsWith(InputAlerts.LIMIT)
                    && a.getMessage().contains("more than 10 load-level changes"));
            assertThat(RunStateSerde.decode(t.driver.<String, byte[]>getKeyValueStore(CaplabTopology.RUN_STATE_STORE)
                    .get(run), 10).levels()).hasSize(10);
        }
    }

    @Test
    void aRecordThatWouldGrowTheStatePastItsBoundIsDeadLetteredAndTheRunGoesOn() {
        int bound = 8 * 1024;
        TopologySettings s = TopologySettings.defaults().withLimits(limits(2000, bound));
        String run = "run-wide-steps";
        try (TopologyFixture t = new TopologyFixture(s, stateDir)) {
            // Each step's load has one 800-byte dimension: 845 state bytes per step over about 110 of the run's own,
            // so 4 steps fit the 4 KiB of input-driven state and the 5th to 8th do not.
            for (int i = 0; i < 8; i++) {
                t.lifecycle(run, Events.stepStarted(run, i, Map.of("d".repeat(800), (double) i), i * 10, 0));
                assertThat(stateBytes(t, run)).isLessThanOrEqualTo(bound / 2);
            }
            for (int i = 0; i < 4; i++) {
                t.lifecycle(run, Events.stepEnded(run, i, i * 10 + 5));
            }
            List<TestRecord<String, byte[]>> dead = t.deadLetter.readRecordsToList();
            assertThat(dead).hasSize(4).allMatch(r -> header(r, DeadLetterHeaders.REASON)
                    .contains("more than " + bound / 2));
            assertThat(t.alerts.readValuesToList()).hasSize(4);
            t.samples(run, List.of(gauge("host", "cpu.cores", 1, 1), gauge("host", "cpu.cores", 100, 1)));
            assertThat(t.verdicts.readValuesToList()).as("the accepted steps still close").hasSize(4);
        }
    }

    @Test
    void aRecordThatThrowsIsDeadLetteredItsRunAlertedAndOtherRunsProcessed() {
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults(), stateDir)) {
            // A negative step index fails StepWindow's check inside the run processor.
            t.lifecycle("run-bad", Events.stepStarted("run-bad", -1, Map.of("users", 1.0), 0, 0));
            TestRecord<String, byte[]> dead = t.deadLetter.readRecord();
            assertThat(header(dead, DeadLetterHeaders.REASON)).contains("processing failed")
                    .contains("step index must be >= 0");
            assertThat(header(dead, DeadLetterHeaders.STAGE)).isEqualTo("run-processor");
            assertThat(t.alerts.readValue().getRunId()).isEqualTo("run-bad");
            VerdictAndFitTest.pipe(t, "run-good");
            assertThat(t.verdicts.readValuesToList()).hasSize(8);
        }
    }

    @Test
    void anEndedRunsPartialsAreDeletedAfterTheAllowedLatenessAndLaterSamplesAreCountedBeyondIt() {
        TopologySettings s = TopologySettings.defaults().withAllowedLateness(Duration.ofHours(24));
        try (TopologyFixture t = new TopologyFixture(s, stateDir)) {
            VerdictAndFitTest.pipe(t, "run-ended");
            t.samples("run-ended", List.of(gauge("host", "cpu.cores", 500, 1))); // after the run: unassigned
            t.samples("run-idle", List.of(gauge("host", "cpu.cores", 1, 1)));
            t.advanceWallClock(Duration.ofSeconds(31));
            assertThat(keys(t, CaplabTopology.RUN_STATE_STORE)).contains("run-ended", "run-idle");
            assertThat(keys(t, CaplabTopology.PARTIALS_STORE)).anyMatch(k -> k.startsWith("run-ended"));

            t.advanceWallClock(Duration.ofHours(24));
            assertThat(keys(t, CaplabTopology.PARTIALS_STORE)).as("ended 24 h ago")
                    .noneMatch(k -> k.startsWith("run-ended")).as("idle 24 h: ended at its last sample, kept 24 h more")
                    .anyMatch(k -> k.startsWith("run-idle"));
            assertThat(t.aggregates.readValuesToList()).anyMatch(a -> a.getRunId().equals("run-idle"));

            t.samples("run-ended", List.of(gauge("host", "cpu.cores", 600, 1), gauge("host", "cpu.cores", 601, 1)));
            assertThat(t.lateness.readValuesToList()).filteredOn(l -> l.getRunId().equals("run-ended"))
                    .last().satisfies(l -> assertThat(l.getBeyondLatenessSamples()).isEqualTo(2));
            assertThat(t.aggregates.readValuesToList()).noneMatch(a -> a.getRunId().equals("run-ended"));

            t.advanceWallClock(Duration.ofHours(24).plusSeconds(31));
            assertThat(keys(t, CaplabTopology.PARTIALS_STORE)).isEmpty();
        }
    }

    private static RunLimits limits(int levelChanges, int stateBytes) {
        RunLimits d = RunLimits.defaults();
        return new RunLimits(d.sample(), levelChanges, d.maxBaselineSeries(), d.maxFitSeries(), stateBytes);
    }

    private static void endedRunWith(TopologyFixture t, String run, Sample s) {
        t.samples(run, List.of(s));
        t.lifecycle(run, Events.runEnded(run, 2));
    }

    private static Sample labelled(Map<String, String> labels) {
        return sample("host", "cpu.cores", SampleKind.GAUGE, 1, 1, labels);
    }

    private static Map<String, String> labels(int n) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < n; i++) {
            m.put("k" + i, "v");
        }
        return m;
    }

    static void pipe(TopologyFixture t, PoisonInputs.Input in) {
        if (in.topic().equals(dev.caplab.schema.topic.TopicCatalog.RUNS)) {
            t.rawRuns(in.key(), in.value());
        } else {
            t.rawSamples(in.key(), in.value());
        }
    }

    private static int stateBytes(TopologyFixture t, String run) {
        byte[] b = t.driver.<String, byte[]>getKeyValueStore(CaplabTopology.RUN_STATE_STORE).get(run);
        return b == null ? 0 : b.length;
    }

    private static List<String> keys(TopologyFixture t, String store) {
        List<String> out = new ArrayList<>();
        KeyValueStore<String, Object> s = t.driver.getKeyValueStore(store);
        try (KeyValueIterator<String, Object> it = s.all()) {
            it.forEachRemaining((KeyValue<String, Object> kv) -> out.add(kv.key));
        }
        return out;
    }

    static String header(TestRecord<String, byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? "" : new String(h.value(), StandardCharsets.UTF_8);
    }
}
