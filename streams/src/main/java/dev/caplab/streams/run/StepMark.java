package dev.caplab.streams.run;

import dev.caplab.analysis.conclusion.StepJudgement;
import dev.caplab.streams.step.StepWindow;
import java.util.Objects;

/**
 * What a closed step was last emitted with: its window (a lifecycle event that changes it re-closes the step), the
 * revision of its aggregates and verdict (the local version: 1 when first closed, +1 per amendment), how many
 * samples were folded into it after it first closed, and what its verdict said about the system (null for a step
 * closed before judgements were kept; the run conclusion reads it).
 */
public record StepMark(StepWindow window, long revision, long lateCount, StepJudgement judgement) {

    public StepMark {
        Objects.requireNonNull(window, "window");
    }

    /** The same mark with one more late sample. */
    StepMark withLateSample() {
        return new StepMark(window, revision, lateCount + 1, judgement);
    }
}
