package dev.caplab.stepper;

import dev.caplab.schema.event.RunConclusion;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a stepped run did: per-step results in order, the newest run conclusion read (streams' decision, empty when
 * none arrived) and, if it stopped early, the failing step and why.
 */
public record StepperOutcome(List<StepResult> steps, Optional<RunConclusion> conclusion, OptionalInt failedStep,
                             String stopReason) {

    public StepperOutcome {
        steps = List.copyOf(steps);
        Objects.requireNonNull(conclusion, "conclusion");
        Objects.requireNonNull(failedStep, "failedStep");
    }

    /** The run conclusion's max stable step: the last passing step before the first failing one, as streams said. */
    public OptionalInt lastPassedStep() {
        return conclusion.map(RunConclusion::getMaxStableStepIndex).map(OptionalInt::of).orElse(OptionalInt.empty());
    }

    /**
     * How the run conclusion counted a step: PASSED when it is the max stable step, FAILED when it is the first
     * failing step (or its tool exited non-zero), SKIPPED when the conclusion closed it without counting it
     * (contaminated or unjudged), NO_CONCLUSION when none accounting for it arrived in time.
     */
    public enum Verdict { PASSED, FAILED, SKIPPED, NO_CONCLUSION }

    /** One step: index, load, the tool's exit code (null if it was stopped at the hold's end), verdict, reason. */
    public record StepResult(int index, double load, Integer exitCode, Verdict verdict, String reason) {
    }
}
