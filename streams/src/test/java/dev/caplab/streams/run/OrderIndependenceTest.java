package dev.caplab.streams.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.Events;
import dev.caplab.streams.SyntheticRun;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.TopologySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One run fed in several orders — lifecycle first, lifecycle last, the load tool's samples before the host's, and
 * everything backwards (step ends before their starts, newest samples first) —
 * gives the same newest aggregates, verdicts, fits and run conclusion field for field, except the fields that record
 * how the data came (version, lateCount, fittedAt). On the raw-buffer design, samples after their step closed were left out.
 */
class OrderIndependenceTest {

    private static final String RUN = "run-order";

    @TempDir
    Path stateDir;

    @Test
    void lifecycleLastAndHostSamplesLastGiveWhatLifecycleFirstGives() {
        List<SyntheticRun.Input> inputs = SyntheticRun.inputs(RUN);
        Stored inOrder = feed(inputs, "in-order");

        Stored last = feed(SyntheticRun.lifecycleLast(RUN), "lifecycle-last");
        Stored late = feed(SyntheticRun.hostLast(RUN), "host-last");
        Stored backwards = feed(SyntheticRun.reversed(RUN), "reversed");

        assertThat(inOrder.aggregates).isNotEmpty().containsKey("0|host|cpu.cores").containsKey("-1|host|cpu.cores");
        assertThat(inOrder.fits).containsKey("host|cpu.cores");
        assertThat(last.aggregates).isEqualTo(inOrder.aggregates);
        assertThat(last.verdicts).isEqualTo(inOrder.verdicts);
        assertThat(last.fits).isEqualTo(inOrder.fits);
        assertThat(late.aggregates).isEqualTo(inOrder.aggregates);
        assertThat(late.verdicts).isEqualTo(inOrder.verdicts);
        assertThat(late.fits).isEqualTo(inOrder.fits);
        assertThat(backwards.aggregates).isEqualTo(inOrder.aggregates);
        assertThat(backwards.verdicts).isEqualTo(inOrder.verdicts);
        assertThat(backwards.fits).isEqualTo(inOrder.fits);
        assertThat(inOrder.conclusion).contains("cpu.cores");
        assertThat(last.conclusion).isEqualTo(inOrder.conclusion);
        assertThat(late.conclusion).isEqualTo(inOrder.conclusion);
        assertThat(backwards.conclusion).isEqualTo(inOrder.conclusion);
        assertThat(late.lateSamples).as("every host sample after the client's event time closed its step")
                .isPositive();
        assertThat(inOrder.lateSamples).isZero();
    }

    /**
     * A run end that vouches for every sample (allSamplesSent) waives the grace: here it comes before any sample and
     * the task reads nothing for longer than {@link SamplesCatchUp#IDLE_MILLIS}, so every step closes empty and every
     * sample amends it; the answer is still the in-order one.
     */
    @Test
    void aRunEndVouchingForSamplesStillToComeGivesTheSameAnswerByAmendment() {
        Stored inOrder = feed(SyntheticRun.inputs(RUN), "in-order");
        List<SyntheticRun.Input> lifecycleFirst = vouchedLifecycleFirst();
        int lifecycleCount = (int) lifecycleFirst.stream().filter(i -> i.lifecycle() != null).count();
        assertThat(lifecycleFirst).anyMatch(i -> i.lifecycle() instanceof RunEnded e && e.getAllSamplesSent());

        Stored vouchedEarly = feed(lifecycleFirst, "vouched-early", lifecycleCount);

        assertThat(vouchedEarly.lateSamples).as("every sample came after its step had closed").isPositive();
        assertThat(vouchedEarly.aggregates).isEqualTo(inOrder.aggregates);
        assertThat(vouchedEarly.verdicts).isEqualTo(inOrder.verdicts);
        assertThat(vouchedEarly.fits).isEqualTo(inOrder.fits);
        assertThat(vouchedEarly.conclusion).isEqualTo(inOrder.conclusion);
    }

    /**
     * Issue 33: under load a task reads the lifecycle partition ahead of the samples partition, so a vouching run end
     * is read before samples sent with it. Read straight after (the task never idle), the samples are not late: the
     * steps waited for them ({@link SamplesCatchUp}) instead of closing empty and being amended.
     */
    @Test
    void aRunEndVouchingForSamplesReadJustAfterItWaitsForThem() {
        Stored inOrder = feed(SyntheticRun.inputs(RUN), "in-order");
        Stored endReadFirst = feed(vouchedLifecycleFirst(), "end-read-first");

        assertThat(endReadFirst.lateSamples).as("samples read before the task went idle").isZero();
        assertThat(endReadFirst.aggregates).isEqualTo(inOrder.aggregates);
        assertThat(endReadFirst.verdicts).isEqualTo(inOrder.verdicts);
        assertThat(endReadFirst.fits).isEqualTo(inOrder.fits);
        assertThat(endReadFirst.conclusion).isEqualTo(inOrder.conclusion);
    }

    /**
     * Issue 33: ends sent through ingest's HTTP API carry a samples mark. A vouching end read before the run's samples
     * waits for the mark even when the task then reads nothing for longer than {@link SamplesCatchUp#IDLE_MILLIS}
     * (the samples partition empty in the task, full on the broker): no sample is late, the answer is the in-order one.
     */
    @Test
    void aMarkedEndWaitsForItsSamplesMarkThroughAnIdleSpell() {
        Stored inOrder = feed(SyntheticRun.inputs(RUN), "in-order");
        TopologySettings settings = TopologySettings.defaults().withGrace(Duration.ofSeconds(10));
        List<SyntheticRun.Input> samples = new ArrayList<>();
        try (TopologyFixture t = new TopologyFixture(settings, stateDir.resolve("marked"))) {
            for (SyntheticRun.Input i : SyntheticRun.inputs(RUN)) {
                if (i.lifecycle() instanceof RunEnded end) {
                    t.markedEnd(RUN, RunEnded.newBuilder(end).setAllSamplesSent(true).build());
                } else if (i.lifecycle() instanceof dev.caplab.schema.event.StepEnded end) {
                    t.markedEnd(RUN, end);
                } else if (i.lifecycle() != null) {
                    t.lifecycle(RUN, i.lifecycle());
                } else {
                    samples.add(i);
                }
            }
            t.advanceWallClock(Duration.ofMillis(SamplesCatchUp.IDLE_MILLIS + 1_000));
            assertThat(t.verdicts.readValuesToList()).as("no step closed before its samples mark").isEmpty();
            samples.forEach(i -> t.samples(RUN, i.samples()));
            t.samplesMark(RUN);
            Stored marked = stored(t);

            assertThat(marked.lateSamples).isZero();
            assertThat(marked.aggregates).isEqualTo(inOrder.aggregates);
            assertThat(marked.verdicts).isEqualTo(inOrder.verdicts);
            assertThat(marked.fits).isEqualTo(inOrder.fits);
            assertThat(marked.conclusion).isEqualTo(inOrder.conclusion);
        }
    }

    @Test
    void anInferredRunFedNewestFirstKeepsNoBaselineItHadOnTheWay() {
        // Nobody declared steps: the load level (k6's vus) defines them. Newest first, the first level seen is the
        // last step's, so the host samples before it look like a pre-test baseline until the earlier levels arrive
        // and the first step starts at the run's first second: that baseline must vanish from what readers see.
        List<List<Sample>> batches = new ArrayList<>();
        for (int step = 0; step < 4; step++) {
            for (int s = 0; s < 60; s += 10) {
                List<Sample> batch = new ArrayList<>();
                for (int k = s; k < s + 10; k++) {
                    double t = step * 60 + k;
                    batch.add(Events.gauge("client", "vus", t, 10 * (step + 1)));
                    batch.add(Events.gauge("host", "cpu.cores", t, 0.2 + 0.1 * step));
                }
                batches.add(batch);
            }
        }
        List<SyntheticRun.Input> forwards = batches.stream().map(b -> new SyntheticRun.Input(null, b)).toList();
        // The host sampler's file first, then the load tool's, each read from its end.
        List<SyntheticRun.Input> backwards = new ArrayList<>();
        for (String source : List.of("host", "client")) {
            for (List<Sample> b : batches.reversed()) {
                backwards.add(new SyntheticRun.Input(null, b.reversed().stream()
                        .filter(x -> x.getSource().toString().equals(source)).toList()));
            }
        }

        Stored inOrder = feed(forwards, "inferred-in-order");
        Stored newestFirst = feed(backwards, "inferred-newest-first");

        assertThat(inOrder.aggregates).containsKey("0|host|cpu.cores").containsKey("2|host|cpu.cores")
                .doesNotContainKey("-1|host|cpu.cores");
        assertThat(newestFirst.aggregates).isEqualTo(inOrder.aggregates);
        assertThat(newestFirst.verdicts).isEqualTo(inOrder.verdicts);
        assertThat(newestFirst.fits).isEqualTo(inOrder.fits);
    }

    @Test
    void declaredStepsArrivingAfterMoreInferredOnesReplaceThemAsIfTheyHadComeFirst() {
        // k6 ramps vus through 8 levels of 30 s; the controller declares 4 steps of 60 s (two levels each). When
        // the samples come first, 8 inferred steps close before the declaration arrives and must leave no trace.
        List<SyntheticRun.Input> samples = new ArrayList<>();
        for (int level = 0; level < 8; level++) {
            for (int s = 0; s < 30; s += 10) {
                List<Sample> batch = new ArrayList<>();
                for (int k = s; k < s + 10; k++) {
                    double t = level * 30 + k;
                    batch.add(Events.gauge("client", "vus", t, 10 * (level + 1)));
                    batch.add(Events.gauge("host", "cpu.cores", t, 0.3 + 0.1 * level));
                }
                samples.add(new SyntheticRun.Input(null, batch));
            }
        }
        List<SyntheticRun.Input> lifecycle = new ArrayList<>();
        lifecycle.add(new SyntheticRun.Input(Events.runStarted(RUN, "users", List.of(), 4), null));
        for (int step = 0; step < 4; step++) {
            lifecycle.add(new SyntheticRun.Input(Events.stepStarted(RUN, step, Map.of("users", 20.0 * (step + 1)),
                    step * 60, 5), null));
            lifecycle.add(new SyntheticRun.Input(Events.stepEnded(RUN, step, step * 60 + 60), null));
        }
        List<SyntheticRun.Input> declaredFirst = new ArrayList<>(lifecycle);
        declaredFirst.addAll(samples);
        declaredFirst.add(new SyntheticRun.Input(Events.runEnded(RUN, 240), null));
        List<SyntheticRun.Input> declaredLast = new ArrayList<>(samples);
        declaredLast.addAll(lifecycle);
        declaredLast.add(new SyntheticRun.Input(Events.runEnded(RUN, 240), null));

        Stored first = feed(declaredFirst, "declared-first");
        Stored last = feed(declaredLast, "declared-last");

        assertThat(last.everClosedSteps).as("inferred steps 4-6 closed before the declaration came").contains(4, 5, 6);
        assertThat(first.aggregates).containsKey("3|host|cpu.cores").doesNotContainKey("4|host|cpu.cores");
        assertThat(last.aggregates).isEqualTo(first.aggregates);
        assertThat(last.fits).isEqualTo(first.fits);
        assertThat(last.conclusion).isEqualTo(first.conclusion);
        // The vanished steps' verdicts are superseded by withdrawn rows, which readers skip.
        assertThat(last.verdicts).isEqualTo(first.verdicts);
    }

    private record Stored(Map<String, String> aggregates, Map<String, String> verdicts, Map<String, String> fits,
                          String conclusion, long lateSamples, java.util.Set<Integer> everClosedSteps) {
    }

    /** The synthetic run's lifecycle, its end vouching for every sample (allSamplesSent), then all its samples. */
    private static List<SyntheticRun.Input> vouchedLifecycleFirst() {
        List<SyntheticRun.Input> lifecycleFirst = new ArrayList<>();
        List<SyntheticRun.Input> samples = new ArrayList<>();
        for (SyntheticRun.Input i : SyntheticRun.inputs(RUN)) {
            if (i.lifecycle() instanceof RunEnded end) {
                lifecycleFirst.add(new SyntheticRun.Input(RunEnded.newBuilder(end).setAllSamplesSent(true).build(),
                        null));
            } else if (i.lifecycle() != null) {
                lifecycleFirst.add(i);
            } else {
                samples.add(i);
            }
        }
        lifecycleFirst.addAll(samples);
        return lifecycleFirst;
    }

    private Stored feed(List<SyntheticRun.Input> inputs, String name) {
        return feed(inputs, name, -1);
    }

    /** Feeds {@code inputs}; after the first {@code idleAfter} of them the task reads nothing for 3 s. */
    private Stored feed(List<SyntheticRun.Input> inputs, String name, int idleAfter) {
        TopologySettings settings = TopologySettings.defaults().withGrace(Duration.ofSeconds(10));
        try (TopologyFixture t = new TopologyFixture(settings, stateDir.resolve(name))) {
            for (int n = 0; n < inputs.size(); n++) {
                if (n == idleAfter) {
                    t.advanceWallClock(Duration.ofMillis(SamplesCatchUp.IDLE_MILLIS + 1_000));
                }
                SyntheticRun.Input i = inputs.get(n);
                if (i.lifecycle() != null) {
                    t.lifecycle(RUN, i.lifecycle());
                } else {
                    t.samples(RUN, i.samples());
                }
            }
            return stored(t);
        }
    }

    /** What a reader of the store sees once the wall clock closed what it closes and flushed amendments. */
    private static Stored stored(TopologyFixture t) {
        {
            for (int k = 0; k < 5; k++) {
                t.advanceWallClock(Duration.ofSeconds(11)); // closes by wall clock and flushes throttled amendments
            }
            // What a reader of the store sees: each window's rows of its newest revision, minus the row that says
            // the window is empty now.
            List<StepAggregate> emitted = t.aggregates.readValuesToList();
            Map<Integer, Long> newest = new TreeMap<>();
            emitted.forEach(a -> newest.merge(a.getStepIndex(), a.getVersion(), Math::max));
            Map<String, StepAggregate> aggregates = new TreeMap<>();
            emitted.stream().filter(a -> a.getVersion() == newest.get(a.getStepIndex()))
                    .filter(a -> !a.getMetric().toString().equals(MetricNames.EMPTY_WINDOW))
                    .forEach(a -> aggregates.put(a.getStepIndex() + "|" + a.getSource() + "|" + a.getMetric(), a));
            Map<String, StepVerdict> verdicts = new TreeMap<>();
            t.verdicts.readValuesToList().forEach(v -> verdicts.merge(String.valueOf(v.getStepIndex()), v,
                    (x, y) -> y.getVersion() >= x.getVersion() ? y : x));
            Map<String, CapacityFit> fits = new TreeMap<>();
            t.fits.readValuesToList().forEach(f -> fits.merge(f.getSource() + "|" + f.getMetric(), f,
                    (x, y) -> y.getVersion() >= x.getVersion() ? y : x));
            long late = t.lateness.readValuesToList().stream().mapToLong(l -> l.getLateSamples()).max().orElse(0);
            Map<String, String> a = new TreeMap<>();
            aggregates.forEach((k, v) -> a.put(k, StepAggregate.newBuilder(v).setVersion(0).setLateCount(0).build()
                    .toString()));
            Map<String, String> vs = new TreeMap<>();
            verdicts.values().stream().filter(v -> !v.getWithdrawn()).forEach(v -> vs.put(String.valueOf(
                    v.getStepIndex()), StepVerdict.newBuilder(v).setVersion(0).setLateCount(0).build().toString()));
            Map<String, String> fs = new TreeMap<>();
            fits.forEach((k, v) -> fs.put(k, CapacityFit.newBuilder(v).setVersion(0).setFittedAt(java.time.Instant.EPOCH)
                    .build().toString()));
            String conclusion = t.conclusions.readValuesToList().stream()
                    .max(java.util.Comparator.comparingLong(RunConclusion::getVersion))
                    .map(c -> RunConclusion.newBuilder(c).setVersion(0).build().toString()).orElse("none");
            java.util.Set<Integer> everClosed = new java.util.TreeSet<>();
            emitted.forEach(x -> everClosed.add(x.getStepIndex()));
            return new Stored(a, vs, fs, conclusion, late, everClosed);
        }
    }
}
