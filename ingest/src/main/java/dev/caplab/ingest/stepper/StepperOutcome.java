package dev.caplab.ingest.stepper;

import java.util.List;
import java.util.OptionalInt;

/** What a stepped run did: per-step results in order and, if it stopped early, the failing step. */
public record StepperOutcome(List<StepResult> steps, OptionalInt failedStep, String stopReason) {

    public StepperOutcome {
        steps = List.copyOf(steps);
    }

    /** The last passing step's load before the first failure: the max stable load, when verdicts were available. */
    public OptionalInt lastPassedStep() {
        int last = -1;
        for (StepResult s : steps) {
            if (s.verdict() == Verdict.FAILED) {
                break;
            }
            if (s.verdict() == Verdict.PASSED) {
                last = s.index();
            }
        }
        return last < 0 ? OptionalInt.empty() : OptionalInt.of(last);
    }

    public enum Verdict { PASSED, FAILED, NO_VERDICT }

    /** One step: index, load, the tool's exit code (null if it was stopped at the hold's end), verdict. */
    public record StepResult(int index, double load, Integer exitCode, Verdict verdict, String reason) {
    }
}
