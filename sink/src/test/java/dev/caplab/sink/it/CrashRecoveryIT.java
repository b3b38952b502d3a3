package dev.caplab.sink.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.StepVerdictRepository;
import dev.caplab.streams.SyntheticRun;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.it.PacedInput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fault test: three stepped runs with a cliff stream in while the streams app and the sink run in a child JVM; mid-run
 * the child is killed with SIGKILL ({@code destroyForcibly}) — a real crash: no close, no commit, the open Kafka
 * transaction and the sink's in-flight batch left as they were. A new child takes over from the same state
 * directory and groups. Afterwards ClickHouse must hold every committed sample exactly once, every step aggregate
 * must match an oracle recomputed from the committed input (read_committed), each aggregate must appear once in the
 * committed output ({@link ExactlyOnceChecks}), and the fits must equal those of an uninterrupted run of the same
 * input.
 */
class CrashRecoveryIT {

    private static final List<String> RUNS = List.of("crash-a", "crash-b", "crash-c");
    /** One input per run every 100 ms. */
    private static final Duration PACE_PER_ROUND = Duration.ofMillis(300);
    /** The input waits before round 30 of 43 until the kill. */
    private static final int HOLD_ROUND = 30;
    @RegisterExtension
    static final ItEnvironment ENV = new ItEnvironment();

    @Test
    void killedMidRunLosesAndDuplicatesNothingAndFitsAsIfUninterrupted() throws Exception {
        PacedInput input = new PacedInput(RUNS, PACE_PER_ROUND, HOLD_ROUND);
        var verdicts = new StepVerdictRepository(ENV.db().dataSource());
        Path state = ENV.dir().resolve("streams-state");
        ChildJvm first = CrashChild.streamsAndSink(ENV, "child-1", state);
        ChildJvm second = null;
        int producedAtKill;
        try {
            first.awaitLine(CrashChild.READY, Duration.ofSeconds(120));
            input.start(ENV.bootstrap(), "crash-it-input");
            // Kill once both roles have committed work (a verdict in ClickHouse) and input is still arriving.
            ChildJvm killed = first;
            ItEnvironment.await(Duration.ofSeconds(90), () -> !verdicts.ofRun(RUNS.getFirst()).isEmpty(),
                    () -> "; no verdict of " + RUNS.getFirst() + ", " + input.progress() + killed.logContext());
            producedAtKill = input.produced();
            first.kill();
            input.release();
            assertThat(producedAtKill).as("the kill came mid-run").isLessThanOrEqualTo(input.recordsBeforeHold());

            second = CrashChild.streamsAndSink(ENV, "child-2", state);
            second.awaitLine(CrashChild.READY, Duration.ofSeconds(120));
            input.awaitSent(Duration.ofMinutes(2));
            var fits = new CapacityFitRepository(ENV.db().dataSource());
            ChildJvm survivor = second;
            ItEnvironment.await(Duration.ofSeconds(180), () -> RUNS.stream().allMatch(r -> verdicts.ofRun(r).size()
                    == SyntheticRun.STEPS && fits.ofRun(r).stream().anyMatch(f -> f.getMetric().equals("cpu.cores")
                    && f.getStepsUsed() == SyntheticRun.STEPS)) && samplesInStore() >= 3L * SyntheticRun.sampleCount(),
                    () -> "; verdicts " + RUNS.stream().map(r -> r + "=" + verdicts.ofRun(r).size()).toList()
                            + ", samples " + samplesInStore() + survivor.logContext());
            // Let the sink drain the last derived records, then stop it the hard way too.
            Thread.sleep(3000);
        } finally {
            input.stop();
            first.destroy();
            if (second != null) {
                second.destroy();
            }
        }

        CommittedInput oracle = CommittedInput.read(ENV.bootstrap());
        ExactlyOnceChecks.samplesStoredOnce(ENV, oracle, RUNS);
        int aggregates = ExactlyOnceChecks.stepAggregatesMatchOracle(ENV, oracle, RUNS);

        // Fits: the committed output and ClickHouse equal an uninterrupted run of the same input.
        Map<String, CapacityFit> uninterrupted = uninterruptedFits(input);
        Map<String, CapacityFit> committedFits = latest(CommittedInput.committed(ENV.bootstrap(),
                TopicCatalog.FITS, (t, b) -> EventSerdes.capacityFit().deserialize(t, b)));
        assertThat(committedFits).isEqualTo(uninterrupted);
        List<CapacityFit> storedFits = new ArrayList<>();
        RUNS.forEach(r -> storedFits.addAll(new CapacityFitRepository(ENV.db().dataSource()).ofRun(r)));
        assertThat(storedFits).hasSameSizeAs(uninterrupted.values());
        for (CapacityFit row : storedFits) {
            CapacityFit want = uninterrupted.get(row.getRunId() + "/" + row.getSource() + "/" + row.getMetric());
            assertThat(want).as("fit " + row.getRunId() + " " + row.getMetric()).isNotNull();
            assertThat(List.of(row.getModel(), row.getStepsUsed(), row.getCliff(), String.valueOf(row.getCapacity()),
                    String.valueOf(row.getSafeCapacityX()), String.valueOf(row.getRSquared()), row.getVersion()))
                    .as("fit " + row.getRunId() + " " + row.getMetric())
                    .isEqualTo(List.of(want.getModel(), want.getStepsUsed(), want.getCliff(),
                            String.valueOf(want.getCapacity()), String.valueOf(want.getSafeCapacityX()),
                            String.valueOf(want.getRSquared()), want.getVersion()));
        }
        assertThat(storedFits.stream().filter(f -> f.getMetric().equals("cpu.cores"))).hasSize(RUNS.size())
                .allSatisfy(f -> assertThat(f.getCliff()).isTrue());
        for (String run : RUNS) {
            assertThat(verdicts.ofRun(run)).extracting(StepVerdict::getPassed)
                    .containsExactly(true, true, true, true, true, false, false, false);
        }
        System.out.printf("crash recovery: %d samples in, %d rows out, %d duplicates, %d aggregates, %d fits equal,"
                + " killed after %d of %d input records%n", 3L * SyntheticRun.sampleCount(), samplesInStore(),
                ENV.scalar("SELECT count() - uniqExact(run_id, source, metric, ts) FROM samples"), aggregates,
                storedFits.size(), producedAtKill, input.records().size());
    }

    /** The same input through the production topology on a TopologyTestDriver, never interrupted: last fit per key. */
    private static Map<String, CapacityFit> uninterruptedFits(PacedInput input) throws IOException {
        Path state = Files.createTempDirectory(ENV.dir(), "ttd");
        try (TopologyFixture t = new TopologyFixture(CrashChild.settings("unused:9092", state).topology(), state)) {
            for (PacedInput.Record r : input.records()) {
                if (r.input().lifecycle() != null) {
                    t.lifecycle(r.runId(), r.input().lifecycle());
                } else {
                    t.samples(r.runId(), r.input().samples());
                }
            }
            t.advanceWallClock(Duration.ofSeconds(31));
            return latest(t.fits.readValuesToList());
        }
    }

    private static Map<String, CapacityFit> latest(List<CapacityFit> fits) {
        Map<String, CapacityFit> out = new HashMap<>();
        fits.forEach(f -> out.put(f.getRunId() + "/" + f.getSource() + "/" + f.getMetric(), f));
        return out;
    }

    private static long samplesInStore() {
        return ENV.scalar("SELECT count() FROM samples");
    }
}
