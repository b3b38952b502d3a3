package dev.caplab.stepper;

import dev.caplab.ingest.publish.LifecycleSink;
import dev.caplab.stepper.StepperOutcome.StepResult;
import dev.caplab.stepper.StepperOutcome.Verdict;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * Runs a load tool once per step: StepStarted, the tool for at most {@code hold} (stopped when the hold ends; an
 * earlier clean exit ends the step early), StepEnded, then waits until the run conclusion streams stores
 * ({@code caplab.conclusions}) accounts for the step as closed and stops when it names a first failing step. The
 * conclusion decides (analysis {@code Conclusions}): a contaminated failing step says nothing about the system, the
 * conclusion skips it, so it does not stop the test. A tool exiting non-zero also stops the run: its step's data is
 * suspect. Progress goes to {@code progress}, one line per state change and one every ten seconds.
 */
public final class SteppedLoadController {

    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(10);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final LifecycleSink lifecycle;
    private final ConclusionSource conclusions;
    private final Duration conclusionTimeout;
    private final Clock clock;
    private final PrintStream progress;

    public SteppedLoadController(LifecycleSink lifecycle, ConclusionSource conclusions, Duration conclusionTimeout,
            Clock clock, PrintStream progress) {
        this.lifecycle = lifecycle;
        this.conclusions = conclusions;
        this.conclusionTimeout = conclusionTimeout;
        this.clock = clock;
        this.progress = progress;
    }

    public StepperOutcome run(String runId, StepPlan plan, CommandTemplate command)
            throws IOException, InterruptedException {
        List<StepResult> results = new ArrayList<>();
        Optional<RunConclusion> latest = Optional.empty();
        int total = plan.loads().size();
        for (int index = 0; index < total; index++) {
            double load = plan.loads().get(index);
            List<String> argv = command.render(runId, index, load, plan.hold());
            progress.printf("step %d/%d  %s=%s  %s%n", index + 1, total, plan.dimension(), format(load),
                    String.join(" ", argv));
            lifecycle.publish(new StepStarted(runId, index, Map.of(plan.dimension(), load), now(),
                    plan.warmup().toNanos() / 1_000)).join();
            Integer exit = runFor(argv, plan.hold(), index, total);
            lifecycle.publish(new StepEnded(runId, index, now())).join();
            if (exit != null && exit != 0) {
                String reason = "tool exited with " + exit + " in step " + index;
                results.add(new StepResult(index, load, exit, Verdict.FAILED, reason));
                progress.println("step " + (index + 1) + " stopped: " + reason);
                return new StepperOutcome(results, latest, OptionalInt.of(index), reason);
            }
            Optional<RunConclusion> concluded = conclusions.awaitStepClosed(runId, index, conclusionTimeout);
            if (concluded.isEmpty()) {
                results.add(new StepResult(index, load, exit, Verdict.NO_CONCLUSION, null));
                progress.printf("step %d/%d  no run conclusion for it within %ds, continuing%n", index + 1, total,
                        conclusionTimeout.toSeconds());
                continue;
            }
            RunConclusion c = concluded.get();
            latest = concluded;
            String summary = ConclusionText.of(c);
            if (c.getFirstFailingStepIndex() != null) {
                int failing = c.getFirstFailingStepIndex();
                results.add(new StepResult(index, load, exit, failing == index ? Verdict.FAILED : Verdict.SKIPPED,
                        summary));
                progress.printf("step %d/%d  FAILED: %s; stopping%n", index + 1, total, summary);
                return new StepperOutcome(results, latest, OptionalInt.of(failing), summary);
            }
            boolean passed = c.getMaxStableStepIndex() != null && c.getMaxStableStepIndex() == index;
            results.add(new StepResult(index, load, exit, passed ? Verdict.PASSED : Verdict.SKIPPED, summary));
            progress.printf("step %d/%d  %s: %s%n", index + 1, total, passed ? "PASSED"
                    : "not counted by the run conclusion (contaminated or unjudged), continuing", summary);
        }
        return new StepperOutcome(results, latest, OptionalInt.empty(), null);
    }

    /** The tool's exit code, or null when it was still running at the hold's end and was stopped. */
    private Integer runFor(List<String> argv, Duration hold, int index, int total)
            throws IOException, InterruptedException {
        Process process = new ProcessBuilder(argv).inheritIO().start();
        Instant started = clock.instant();
        Instant deadline = started.plus(hold);
        while (true) {
            Duration left = Duration.between(clock.instant(), deadline);
            if (left.isNegative() || left.isZero()) {
                break;
            }
            long waitMillis = Math.min(left.toMillis(), PROGRESS_EVERY.toMillis());
            if (process.waitFor(Math.max(1, waitMillis), TimeUnit.MILLISECONDS)) {
                return process.exitValue();
            }
            progress.printf("step %d/%d  %ds/%ds%n", index + 1, total,
                    Duration.between(started, clock.instant()).toSeconds(), hold.toSeconds());
        }
        process.destroy();
        if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor();
        }
        return null;
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    private static String format(double load) {
        return load == Math.rint(load) ? Long.toString((long) load) : Double.toString(load);
    }
}
