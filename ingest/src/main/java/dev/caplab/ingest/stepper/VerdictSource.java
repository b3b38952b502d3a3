package dev.caplab.ingest.stepper;

import java.time.Duration;
import java.util.Optional;

/** Where the stepper learns whether a step passed; empty when no verdict arrived in time (the run continues). */
public interface VerdictSource {

    Optional<StepOutcome> awaitVerdict(String runId, int stepIndex, Duration timeout) throws InterruptedException;

    /** A step's verdict: passed, or failed with the reason; contaminated when other processes ate its host's CPU. */
    record StepOutcome(boolean passed, boolean contaminated, String reason) {

        /** An uncontaminated step's verdict. */
        public StepOutcome(boolean passed, String reason) {
            this(passed, false, reason);
        }
    }

    /** No verdicts at all: every step runs. */
    VerdictSource NONE = (runId, stepIndex, timeout) -> Optional.empty();
}
