package dev.caplab.ingest.stepper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

class SteppedLoadControllerTest {

    private final List<SpecificRecord> events = new ArrayList<>();
    private final ByteArrayOutputStream progress = new ByteArrayOutputStream();

    private SteppedLoadController controller(VerdictSource verdicts) {
        return new SteppedLoadController(e -> {
            events.add(e);
            return CompletableFuture.completedFuture(null);
        }, verdicts, Duration.ofMillis(50), Clock.systemUTC(), new PrintStream(progress, true, StandardCharsets.UTF_8));
    }

    private static StepPlan plan(double... loads) {
        List<Double> list = new ArrayList<>();
        for (double l : loads) {
            list.add(l);
        }
        return new StepPlan(list, Duration.ofMillis(300), Duration.ofMillis(100), "users");
    }

    @Test
    void stopsAtTheFirstFailingStepAfterEmittingItsLifecycle() throws Exception {
        VerdictSource failAtTwo = (run, step, timeout) ->
                Optional.of(new VerdictSource.StepOutcome(step != 1, step == 1 ? "p95(http_req_duration)<=500" : null));

        StepperOutcome outcome = controller(failAtTwo).run("r1", plan(12, 25, 50),
                new CommandTemplate(List.of("sh", "-c", "test {load} -gt 0")));

        assertThat(outcome.failedStep()).hasValue(1);
        assertThat(outcome.lastPassedStep()).hasValue(0);
        assertThat(events).extracting(e -> e.getClass().getSimpleName())
                .containsExactly("StepStarted", "StepEnded", "StepStarted", "StepEnded");
        StepStarted second = (StepStarted) events.get(2);
        assertThat(second.getLoad()).containsEntry("users", 25.0);
        assertThat(second.getWarmupMicros()).isEqualTo(100_000L);
        assertThat(((StepEnded) events.get(3)).getStepIndex()).isEqualTo(1);
        assertThat(progress.toString(StandardCharsets.UTF_8)).contains("step 2/3  users=25  sh -c test 25 -gt 0")
                .contains("FAILED: p95(http_req_duration)<=500");
    }

    @Test
    void aContaminatedFailingStepDoesNotStopTheTestAndIsSkippedForTheMaxStableLoad() throws Exception {
        // step 1 failed while another process ate the host's CPU: it says nothing; step 2 passes, step 3 fails
        VerdictSource verdicts = (run, step, timeout) -> Optional.of(switch (step) {
            case 1 -> new VerdictSource.StepOutcome(false, true, "p95(http_req_duration)<=500");
            case 3 -> new VerdictSource.StepOutcome(false, false, "p95(http_req_duration)<=500");
            default -> new VerdictSource.StepOutcome(true, null);
        });

        StepperOutcome outcome = controller(verdicts).run("r4", plan(12, 25, 50, 75, 100),
                new CommandTemplate(List.of("sh", "-c", "exit 0")));

        assertThat(outcome.failedStep()).hasValue(3);
        assertThat(outcome.lastPassedStep()).hasValue(2);
        assertThat(outcome.steps()).hasSize(4);
        assertThat(progress.toString(StandardCharsets.UTF_8)).contains("but contaminated")
                .contains("step 4/5  FAILED: p95(http_req_duration)<=500; stopping");
    }

    @Test
    void withoutVerdictsEveryStepRunsAndALongToolIsStoppedAtTheHold() throws Exception {
        long started = System.nanoTime();
        StepperOutcome outcome = controller(VerdictSource.NONE).run("r2", plan(1, 2),
                new CommandTemplate(List.of("sleep", "30")));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        assertThat(outcome.failedStep()).isEmpty();
        assertThat(outcome.steps()).extracting(StepperOutcome.StepResult::exitCode).containsOnlyNulls();
        assertThat(outcome.steps()).extracting(StepperOutcome.StepResult::verdict)
                .containsOnly(StepperOutcome.Verdict.NO_VERDICT);
        assertThat(events).hasSize(4);
    }

    @Test
    void aToolExitingNonZeroStopsTheRun() throws Exception {
        StepperOutcome outcome = controller(VerdictSource.NONE).run("r3", plan(5, 10),
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
