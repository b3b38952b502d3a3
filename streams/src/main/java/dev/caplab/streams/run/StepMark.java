package dev.caplab.streams.run;

import dev.caplab.analysis.conclusion.StepJudgement;
import dev.caplab.streams.step.StepWindow;
import java.util.Objects;

/**
 * What a closed step was last emitted with: its window (a lifecycle event that changes it re-closes the step), the
 * revision of its aggregates and verdict (the local version: 1 when first closed, +1 per amendment), how many
 * samples were folded into it after it first closed, and what its verdict said about the system (null for a step
 * closed before judgements were kept; the run conclusion reads it). {@code vanished}: the step is no longer in the
 * run's timeline (inferred steps replaced by fewer declared ones); its rows were emptied at {@code revision}, so a
 * step that comes back with this index closes at a higher one.
 */
public record StepMark(StepWindow window, long revision, long lateCount, StepJudgement judgement, boolean vanished) {

    public StepMark {
        Objects.requireNonNull(window, "window");
    }

    public StepMark(StepWindow window, long revision, long lateCount, StepJudgement judgement) {
        this(window, revision, lateCount, judgement, false);
    }

    /** The same mark with one more late sample. */
    StepMark withLateSample() {
        return new StepMark(window, revision, lateCount + 1, judgement, vanished);
    }

    /** The mark of a step that left the timeline, its rows emptied at the next revision. */
    StepMark vanishing() {
        return new StepMark(window, revision + 1, lateCount, null, true);
    }
}
