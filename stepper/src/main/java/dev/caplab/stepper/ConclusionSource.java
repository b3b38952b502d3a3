package dev.caplab.stepper;

import dev.caplab.schema.event.RunConclusion;
import java.time.Duration;
import java.util.Optional;

/**
 * Where the stepper reads the run conclusion streams stores on every step close: it decides nothing itself. Empty
 * when no conclusion accounting for the step arrived in time (the run continues).
 */
public interface ConclusionSource {

    /** The run's newest conclusion once it {@linkplain #accountsFor accounts for} step {@code stepIndex}. */
    Optional<RunConclusion> awaitStepClosed(String runId, int stepIndex, Duration timeout)
            throws InterruptedException;

    /**
     * Whether the conclusion counts step {@code stepIndex} as closed. Streams closes steps in index order and
     * concludes over every closed one, each either judged or skipped (contaminated or unjudged), so steps
     * {@code 0 .. stepsJudged + stepsSkipped - 1} are closed; a closed run has closed every step.
     */
    static boolean accountsFor(RunConclusion conclusion, int stepIndex) {
        return conclusion.getRunClosed() || conclusion.getStepsJudged() + conclusion.getStepsSkipped() > stepIndex;
    }

    /** No conclusions at all: every step runs. */
    ConclusionSource NONE = (runId, stepIndex, timeout) -> Optional.empty();
}
