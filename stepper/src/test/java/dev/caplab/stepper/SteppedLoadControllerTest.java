package dev.caplab.stepper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

class SteppedLoadControllerTest {

    private final List<SpecificRecord> events = new ArrayList<>();
    private final ByteArrayOutputStream progress = new ByteArrayOutputStream();

    private SteppedLoadController controller(ConclusionSource conclusions) {
        return new SteppedLoadController(e -> {
            events.add(e);
            return CompletableFuture.completedFuture(null);
        }, conclusions, Duration.ofMillis(50), Clock.systemUTC(), new PrintStream(progress, true, StandardCharsets.UTF_8));
    }

    private static StepPlan plan(double... loads) {
        List<Double> list = new ArrayList<>();
        for (double l : loads) {
            list.add(l);
        }
        return new StepPlan(list, Duration.ofMillis(300), Duration.ofMillis(100), "users");
    }

    /** A conclusion as streams would store it; nulls where it concluded nothing. */
    private static RunConclusion conclusion(int judged, int skipped, Integer stableIndex, Double stableX,
            Integer failingIndex, Double failingX) {
        return RunConclusion.newBuilder().setRunId("r").setStepsJudged(judged).setStepsSkipped(skipped)
                .setMaxStableStepIndex(stableIndex).setMaxStableX(stableX).setFirstFailingStepIndex(failingIndex)
                .setFirstFailingX(failingX).setMargin(0.6).setResources(List.of()).setWarnings(List.of())
                .setBottleneck(null).setModel("conclusions/1")
                .setConcludedAt(Instant.parse("2026-01-01T00:00:00Z")).setVersion(judged + skipped).build();
    }

    /** Streams' answer after each step, in step order; a step past the script gets none. */
    private static ConclusionSource scripted(RunConclusion... afterStep) {
        return (run, step, timeout) -> step < afterStep.length ? Optional.of(afterStep[step]) : Optional.empty();
    }

    @Test
    void stopsWhenTheConclusionNamesAFirstFailingStepAfterEmittingItsLifecycle() throws Exception {
        ConclusionSource failAtTwo = scripted(conclusion(1, 0, 0, 12.0, null, null),
                conclusion(2, 0, 0, 12.0, 1, 25.0), conclusion(3, 0, 2, 50.0, null, null));

        StepperOutcome outcome = controller(failAtTwo).run("r1", plan(12, 25, 50),
                new CommandTemplate(List.of("sh", "-c", "test {load} -gt 0")));

        assertThat(outcome.failedStep()).hasValue(1);
        assertThat(outcome.lastPassedStep()).hasValue(0);
        assertThat(outcome.steps()).extracting(StepperOutcome.StepResult::verdict)
                .containsExactly(StepperOutcome.Verdict.PASSED, StepperOutcome.Verdict.FAILED);
        assertThat(events).extracting(e -> e.getClass().getSimpleName())
                .containsExactly("StepStarted", "StepEnded", "StepStarted", "StepEnded");
        StepStarted second = (StepStarted) events.get(2);
        assertThat(second.getLoad()).containsEntry("users", 25.0);
        assertThat(second.getWarmupMicros()).isEqualTo(100_000L);
        assertThat(((StepEnded) events.get(3)).getStepIndex()).isEqualTo(1);
        assertThat(progress.toString(StandardCharsets.UTF_8)).contains("step 2/3  users=25  sh -c test 25 -gt 0")
                .contains("step 2/3  FAILED: max stable load x=12 (step index 0), first failing x=25 (step index 1)")
                .contains("; stopping");
    }

    @Test
    void aStepTheConclusionSkipsDoesNotStopTheTest() throws Exception {
        // step 1 failed while another process ate the host's CPU: streams' conclusion skips it; step 3 fails
        ConclusionSource conclusions = scripted(conclusion(1, 0, 0, 12.0, null, null),
                conclusion(1, 1, 0, 12.0, null, null), conclusion(2, 1, 2, 50.0, null, null),
                conclusion(3, 1, 2, 50.0, 3, 75.0), conclusion(4, 1, 4, 100.0, null, null));

        StepperOutcome outcome = controller(conclusions).run("r4", plan(12, 25, 50, 75, 100),
                new CommandTemplate(List.of("sh", "-c", "exit 0")));

        assertThat(outcome.failedStep()).hasValue(3);
        assertThat(outcome.lastPassedStep()).hasValue(2);
        assertThat(outcome.steps()).extracting(StepperOutcome.StepResult::verdict).containsExactly(
                StepperOutcome.Verdict.PASSED, StepperOutcome.Verdict.SKIPPED, StepperOutcome.Verdict.PASSED,
                StepperOutcome.Verdict.FAILED);
        assertThat(progress.toString(StandardCharsets.UTF_8))
                .contains("step 2/5  not counted by the run conclusion (contaminated or unjudged), continuing")
                .contains("1 skipped")
                .contains("step 4/5  FAILED: max stable load x=50 (step index 2), first failing x=75 (step index 3)");
    }

    @Test
    void aConclusionAccountsForTheStepsItClosedOrAllOnceTheRunClosed() {
        // two steps closed: one judged, one skipped → steps 0 and 1 closed, step 2 not yet
        RunConclusion twoClosed = conclusion(1, 1, 0, 12.0, null, null);
        assertThat(ConclusionSource.accountsFor(twoClosed, 0)).isTrue();
        assertThat(ConclusionSource.accountsFor(twoClosed, 1)).isTrue();
        assertThat(ConclusionSource.accountsFor(twoClosed, 2)).isFalse();
        twoClosed.setRunClosed(true);
        assertThat(ConclusionSource.accountsFor(twoClosed, 2)).isTrue();
    }

    @Test
    void withoutConclusionsEveryStepRunsAndALongToolIsStoppedAtTheHold() throws Exception {
        long started = System.nanoTime();
        StepperOutcome outcome = controller(ConclusionSource.NONE).run("r2", plan(1, 2),
                new CommandTemplate(List.of("sleep", "30")));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        assertThat(outcome.failedStep()).isEmpty();
        assertThat(outcome.steps()).extracting(StepperOutcome.StepResult::exitCode).containsOnlyNulls();
        assertThat(outcome.steps()).extracting(StepperOutcome.StepResult::verdict)
                .containsOnly(StepperOutcome.Verdict.NO_CONCLUSION);
        assertThat(events).hasSize(4);
    }

    @Test
    void aToolExitingNonZeroStopsTheRun() throws Exception {
        StepperOutcome outcome = controller(ConclusionSource.NONE).run("r3", plan(5, 10),
                new CommandTemplate(List.of("sh", "-c", "exit 3")));

        assertThat(outcome.failedStep()).hasValue(0);
        assertThat(outcome.stopReason()).isEqualTo("tool exited with 3 in step 0");
        assertThat(events).hasSize(2);
    }

    @Test
    void templatesFillEveryPlaceholder() {
        assertThat(new CommandTemplate(List.of("k6", "run", "--vus", "{load}", "--duration", "{hold}s", "--tag",
                "run={run}", "step{step}")).render("r", 2, 50, Duration.ofSeconds(120)))
                .containsExactly("k6", "run", "--vus", "50", "--duration", "120s", "--tag", "run=r", "step2");
        assertThat(new CommandTemplate(List.of("{load}")).render("r", 0, 2.5, Duration.ofSeconds(1)))
                .containsExactly("2.5");
    }
}
