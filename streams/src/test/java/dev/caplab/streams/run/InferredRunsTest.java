package dev.caplab.streams.run;

import static dev.caplab.streams.Events.at;
import static dev.caplab.streams.Events.gauge;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunOrigin;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.streams.Events;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.TopologySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs without ceremony (issue 16) on the production topology: samples alone make an inferred RunStarted (earliest
 * sample, metadata from labels) on the lifecycle topic, the run ends after the idle time with a RunEnded and its last
 * inferred step closed, and a declared start arriving later gets the end repeated after it.
 */
class InferredRunsTest {

    private static final Duration IDLE = Duration.ofSeconds(5);

    @TempDir
    Path stateDir;

    @Test
    void samplesAloneStartARunThatEndsWhenIdleClosingItsLastStep() {
        String run = "run-bare";
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults().withRunIdleEnd(IDLE), stateDir)) {
            t.samples(run, steps(30, 100, Map.of("sut", "echo", "provider", "hetzner", "tier", "cx22")));
            // an earlier batch arrives second: the start moves to the earliest sample, whatever the arrival order
            t.samples(run, steps(0, 30, Map.of("sut", "other")));
            List<SpecificRecord> lifecycle = t.lifecycleOut.readValuesToList();
            assertThat(lifecycle).hasSize(2).allMatch(e -> e instanceof RunStarted);
            RunStarted last = (RunStarted) lifecycle.getLast();
            assertThat(last.getOrigin()).isEqualTo(RunOrigin.INFERRED);
            assertThat(last.getStartedAt()).isEqualTo(at(0));
            assertThat(last.getSut().getName().toString()).as("the first value seen wins").isEqualTo("echo");
            assertThat(last.getEnvironment().getProvider().toString()).isEqualTo("hetzner");
            assertThat(last.getEnvironment().getTier().toString()).isEqualTo("cx22");
            assertThat(last.getTool().toString()).as("the batch's adapter").isEqualTo("test");
            assertThat(((RunStarted) lifecycle.getFirst()).getStartedAt()).isEqualTo(at(30));
            // step 0 closed on the first batch and is amended by the earlier one (a higher version of the same step)
            assertThat(t.verdicts.readValuesToList()).extracting(StepVerdict::getStepIndex).containsOnly(0);

            t.advanceWallClock(IDLE.minusSeconds(1));
            assertThat(t.lifecycleOut.isEmpty()).as("not idle yet").isTrue();
            t.advanceWallClock(Duration.ofSeconds(2));
            List<SpecificRecord> ended = t.lifecycleOut.readValuesToList();
            assertThat(ended).hasSize(1).first().isInstanceOf(RunEnded.class);
            assertThat(((RunEnded) ended.getFirst()).getEndedAt()).as("its last sample").isEqualTo(at(99));
            assertThat(t.verdicts.readValuesToList()).as("the last inferred step closed")
                    .extracting(StepVerdict::getStepIndex).containsExactly(1);

            // run start arrives after everything: the end is repeated after it, so the row ends up declared and ended
            t.lifecycle(run, Events.runStarted(run, "vus", List.of(), 2));
            List<SpecificRecord> again = t.lifecycleOut.readValuesToList();
            assertThat(again).hasSize(1).first().isInstanceOf(RunEnded.class);
            assertThat(((RunEnded) again.getFirst()).getEndedAt()).isEqualTo(at(99));
        }
    }

    @Test
    void aDeclaredRunIsNotEndedByTheIdleTimeAndGetsNoInferredStart() {
        String run = "run-declared";
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults().withRunIdleEnd(IDLE), stateDir)) {
            t.lifecycle(run, Events.runStarted(run, "vus", List.of(), 2));
            t.samples(run, steps(0, 100, Map.of()));
            t.advanceWallClock(IDLE.multipliedBy(3));
            assertThat(t.lifecycleOut.readValuesToList()).isEmpty();
            assertThat(t.verdicts.readValuesToList()).extracting(StepVerdict::getStepIndex).containsExactly(0);
        }
    }

    @Test
    void anEndThatCameBeforeTheInferredStartIsRepeatedAfterIt() {
        String run = "run-end-first";
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults().withRunIdleEnd(IDLE), stateDir)) {
            t.lifecycle(run, Events.runEnded(run, 90));
            t.samples(run, steps(0, 100, Map.of()));
            List<SpecificRecord> out = t.lifecycleOut.readValuesToList();
            assertThat(out).extracting(e -> e.getClass().getSimpleName()).containsExactly("RunStarted", "RunEnded");
        }
    }

    /** vus 10 for [0, 60) s and 20 from 60 s, with a CPU gauge; {@code labels} on every sample. */
    private static List<Sample> steps(int fromSecond, int toSecond, Map<String, String> labels) {
        List<Sample> batch = new ArrayList<>();
        for (int s = fromSecond; s < toSecond; s++) {
            double vus = s < 60 ? 10 : 20;
            batch.add(Events.sample("k6", "vus", SampleKind.GAUGE, s, vus, labels));
            batch.add(gauge("sut", "cpu.cores", s, vus / 10));
        }
        return batch;
    }
}
