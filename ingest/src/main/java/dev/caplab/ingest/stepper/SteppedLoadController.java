package dev.caplab.ingest.stepper;

import dev.caplab.ingest.publish.LifecycleSink;
import dev.caplab.ingest.stepper.StepperOutcome.StepResult;
import dev.caplab.ingest.stepper.StepperOutcome.Verdict;
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
 * earlier clean exit ends the step early), StepEnded, then waits for the step's verdict and stops at the first
 * failing step as the run conclusion counts it (analysis {@code Conclusions.maxStableLoad}): a contaminated failing
 * step says nothing about the system, so it does not stop the test by itself. A tool exiting non-zero also stops the
 * run: its step's data is suspect. Progress goes to
 * {@code progress}, one line per state change and one every ten seconds.
 */
public final class SteppedLoadController {

    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(10);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final LifecycleSink lifecycle;
    private final VerdictSource verdicts;
    private final Duration verdictTimeout;
    private final Clock clock;
    private final PrintStream progress;

    public SteppedLoadController(LifecycleSink lifecycle, VerdictSource verdicts, Duration verdictTimeout, Clock clock,
            PrintStream progress) {
        this.lifecycle = lifecycle;
        this.verdicts = verdicts;
        this.verdictTimeout = verdictTimeout;
        this.clock = clock;
        this.progress = progress;
    }

    public StepperOutcome run(String runId, StepPlan plan, CommandTemplate command)
            throws IOException, InterruptedException {
        List<StepResult> results = new ArrayList<>();
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
                return new StepperOutcome(results, OptionalInt.of(index), reason);
            }
            Optional<VerdictSource.StepOutcome> verdict = verdicts.awaitVerdict(runId, index, verdictTimeout);
            if (verdict.isEmpty()) {
                results.add(new StepResult(index, load, exit, Verdict.NO_VERDICT, null));
                progress.printf("step %d/%d  no verdict within %ds, continuing%n", index + 1, total,
                        verdictTimeout.toSeconds());
            } else {
                VerdictSource.StepOutcome v = verdict.get();
                results.add(new StepResult(index, load, exit, v.passed() ? Verdict.PASSED : Verdict.FAILED,
                        v.contaminated(), v.reason()));
                // the run conclusion's rule decides whether this is the first failure: a contaminated step is not
                if (new StepperOutcome(results, OptionalInt.empty(), null).stable().firstFailing().isPresent()) {
                    progress.printf("step %d/%d  FAILED: %s; stopping%n", index + 1, total, v.reason());
                    return new StepperOutcome(results, OptionalInt.of(index), v.reason());
                }
                progress.printf("step %d/%d  %s%n", index + 1, total, v.contaminated()
                        ? (v.passed() ? "PASSED" : "FAILED: " + v.reason()) + " but contaminated: it says nothing about"
                                + " the system, continuing"
                        : "PASSED");
            }
        }
        return new StepperOutcome(results, OptionalInt.empty(), null);
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
