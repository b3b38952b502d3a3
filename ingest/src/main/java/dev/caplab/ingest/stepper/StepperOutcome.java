package dev.caplab.ingest.stepper;

import dev.caplab.analysis.conclusion.Conclusions;
import dev.caplab.analysis.conclusion.StableLoad;
import dev.caplab.analysis.conclusion.StepJudgement;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/** What a stepped run did: per-step results in order and, if it stopped early, the failing step. */
public record StepperOutcome(List<StepResult> steps, OptionalInt failedStep, String stopReason) {

    public StepperOutcome {
        steps = List.copyOf(steps);
    }

    /**
     * The last passing step before the first failing one, by the run conclusion's own rule (analysis
     * {@link Conclusions#maxStableLoad}): contaminated steps and steps without a verdict are skipped.
     */
    public OptionalInt lastPassedStep() {
        return stable().lastPassing().map(j -> OptionalInt.of(j.stepIndex())).orElse(OptionalInt.empty());
    }

    /** Max stable load over the steps so far (the controller stops when it has a first failing step). */
    StableLoad stable() {
        return Conclusions.maxStableLoad(steps.stream().map(StepResult::judgement).toList());
    }

    public enum Verdict { PASSED, FAILED, NO_VERDICT }

    /** One step: index, load, the tool's exit code (null if it was stopped at the hold's end), verdict. */
    public record StepResult(int index, double load, Integer exitCode, Verdict verdict, boolean contaminated,
                             String reason) {

        /** An uncontaminated step. */
        public StepResult(int index, double load, Integer exitCode, Verdict verdict, String reason) {
            this(index, load, exitCode, verdict, false, reason);
        }

        StepJudgement judgement() {
            return new StepJudgement(index, OptionalDouble.of(load), switch (verdict) {
                case PASSED -> StepJudgement.Verdict.PASSED;
                case FAILED -> StepJudgement.Verdict.FAILED;
                case NO_VERDICT -> StepJudgement.Verdict.UNJUDGED;
            }, contaminated, Optional.empty());
        }
    }
}
