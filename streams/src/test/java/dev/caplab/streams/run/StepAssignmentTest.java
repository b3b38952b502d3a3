package dev.caplab.streams.run;

import static dev.caplab.streams.Events.gauge;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.streams.Events;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.step.StepWindow;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Step assignment by event time: warm-up, baseline, late data within and beyond grace, unassigned samples. */
class StepAssignmentTest {

    private static final String RUN = "run-assign";
    @TempDir
    Path stateDir;
    private TopologyFixture t;

    @BeforeEach
    void start() {
        t = new TopologyFixture(TopologySettings.defaults().withGrace(Duration.ofSeconds(10)), stateDir);
    }

    @AfterEach
    void stop() {
        t.close();
    }

    @Test
    void warmupBaselineLateAndUnassignedArePlacedByEventTime() {
        t.lifecycle(RUN, Events.runStarted(RUN, "users", List.of(), 4));
        t.samples(RUN, series(0, 10, 0.5));
        t.lifecycle(RUN, Events.stepStarted(RUN, 0, Map.of("users", 10.0), 10, 5));
        t.samples(RUN, series(10, 15, 5.0)); // warm-up spike
        List<Sample> steady = series(15, 30, 1.0);
        t.samples(RUN, steady.reversed()); // out of order within the batch
        t.lifecycle(RUN, Events.stepEnded(RUN, 0, 30));
        t.samples(RUN, List.of(gauge("host", "cpu.cores", 29.5, 1.0))); // late, within grace
        t.samples(RUN, List.of(gauge("host", "cpu.cores", 35, 9.0))); // between steps
        assertThat(t.aggregates.isEmpty()).as("step 0 still inside grace").isTrue();

        t.lifecycle(RUN, Events.stepStarted(RUN, 1, Map.of("users", 20.0), 40, 0));
        t.samples(RUN, series(40, 80, 2.0)); // event time passes 30 + 10: step 0 closes
        t.samples(RUN, List.of(gauge("host", "cpu.cores", 20, 100.0))); // beyond grace
        t.lifecycle(RUN, Events.stepEnded(RUN, 1, 80));
        t.lifecycle(RUN, Events.runEnded(RUN, 80));
        t.samples(RUN, List.of(gauge("host", "cpu.cores", 91, 3.0))); // after the run, closes it

        List<StepAggregate> out = t.aggregates.readValuesToList();
        StepAggregate baseline = only(out, StepWindow.BASELINE_INDEX);
        assertThat(baseline.getCount()).isEqualTo(10);
        assertThat(baseline.getSustained()).isEqualTo(0.5);

        List<StepAggregate> step0Revisions = out.stream().filter(a -> a.getStepIndex() == 0
                && a.getMetric().equals("cpu.cores")).toList();
        assertThat(step0Revisions).extracting(StepAggregate::getVersion).as("closed, then amended once")
                .containsExactly(1L, 2L);
        StepAggregate closed = step0Revisions.getFirst();
        assertThat(closed.getCount()).as("20 in window + 1 late within grace").isEqualTo(21);
        assertThat(closed.getWarmupCount()).isEqualTo(5);
        assertThat(closed.getMax()).as("max excludes the warm-up spike of 5.0").isEqualTo(1.0);
        assertThat(closed.getMean()).as("mean of the 15 steady samples and the late 1.0, warm-up left out")
                .isEqualTo(1.0);
        assertThat(closed.getPeak()).as("peak excludes warm-up").isEqualTo(1.0);
        assertThat(closed.getSustained()).isEqualTo(1.0);
        assertThat(closed.getBaselineDelta()).isCloseTo(0.5, within(1e-12));
        assertThat(closed.getX()).isEqualTo(10.0);
        assertThat(closed.getLateCount()).isZero();

        StepAggregate amended = step0Revisions.getLast();
        assertThat(amended.getCount()).as("the beyond-grace sample amends its step").isEqualTo(22);
        assertThat(amended.getMax()).isEqualTo(100.0);
        assertThat(amended.getPeak()).as("second 20 now averages 1.0 and 100.0").isEqualTo(50.5);
        assertThat(amended.getSustained()).as("median of 15 per-second means").isEqualTo(1.0);
        assertThat(amended.getLateCount()).isEqualTo(1);
        List<StepVerdict> verdicts0 = t.verdicts.readValuesToList().stream().filter(v -> v.getStepIndex() == 0)
                .toList();
        assertThat(verdicts0).extracting(StepVerdict::getVersion).containsExactly(1L, 2L);
        assertThat(verdicts0.getLast().getLateCount()).isEqualTo(1);

        StepAggregate step1 = only(out, 1);
        assertThat(step1.getCount()).isEqualTo(40);
        assertThat(step1.getSustained()).isEqualTo(2.0);

        StepAggregate unassigned = only(out, StepWindow.UNASSIGNED_INDEX);
        assertThat(unassigned.getCount()).as("gap and after-run samples").isEqualTo(2);
        assertThat(unassigned.getMax()).isEqualTo(9.0);
        assertThat(t.metric(RunProcessor.LATE_SAMPLES_OPERATION + "-total")).isEqualTo(1.0);
        assertThat(t.lateness.readValuesToList()).last().satisfies(l -> {
            assertThat(l.getLateSamples()).isEqualTo(1);
            assertThat(l.getBeyondLatenessSamples()).isZero();
        });
    }

    @Test
    void wallClockClosesTheLastStepWhenNoLaterDataArrives() {
        t.lifecycle(RUN, Events.runStarted(RUN, "users", List.of(), 4));
        t.lifecycle(RUN, Events.stepStarted(RUN, 0, Map.of("users", 5.0), 0, 0));
        t.samples(RUN, series(0, 20, 1.5));
        t.lifecycle(RUN, Events.stepEnded(RUN, 0, 20));
        t.advanceWallClock(Duration.ofSeconds(5));
        assertThat(t.aggregates.isEmpty()).isTrue();
        t.advanceWallClock(Duration.ofSeconds(6));
        StepAggregate step0 = only(t.aggregates.readValuesToList(), 0);
        assertThat(step0.getCount()).isEqualTo(20);
        assertThat(t.verdicts.readValue().getPassed()).isTrue();
    }

    @Test
    void lifecycleProcessedAheadOfItsSamplesDoesNotCloseStepsWithoutThem() {
        // The controller's events overtake the sampler's batches (seen in CI on the demo): all lifecycle first.
        t.lifecycle(RUN, Events.runStarted(RUN, "users", List.of(), 4));
        t.lifecycle(RUN, Events.stepStarted(RUN, 0, Map.of("users", 10.0), 0, 0));
        t.lifecycle(RUN, Events.stepEnded(RUN, 0, 30));
        t.lifecycle(RUN, Events.stepStarted(RUN, 1, Map.of("users", 20.0), 30, 0));
        t.lifecycle(RUN, Events.stepEnded(RUN, 1, 60));
        t.lifecycle(RUN, Events.runEnded(RUN, 100));
        assertThat(t.aggregates.isEmpty()).as("no step closes on lifecycle time alone").isTrue();

        t.samples(RUN, series(0, 30, 1.0));
        t.samples(RUN, series(30, 60, 2.0));
        assertThat(only(t.aggregates.readValuesToList(), 0).getCount()).isEqualTo(30);
        t.advanceWallClock(Duration.ofSeconds(11));
        assertThat(only(t.aggregates.readValuesToList(), 1).getCount()).isEqualTo(30);
    }

    static List<Sample> series(int fromSecond, int toSecond, double value) {
        List<Sample> out = new ArrayList<>();
        for (int s = fromSecond; s < toSecond; s++) {
            out.add(gauge("host", "cpu.cores", s, value));
        }
        return out;
    }

    static StepAggregate only(List<StepAggregate> all, int stepIndex) {
        List<StepAggregate> matching = all.stream().filter(a -> a.getStepIndex() == stepIndex).toList();
        assertThat(matching).as("aggregates of step " + stepIndex).hasSize(1);
        return matching.getFirst();
    }
}
