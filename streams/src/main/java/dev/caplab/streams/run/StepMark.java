package dev.caplab.streams.run;

import dev.caplab.streams.step.StepWindow;
import java.util.Objects;

/**
 * What a closed step was last emitted with: its window (a lifecycle event that changes it re-closes the step), the
 * revision of its aggregates and verdict (the local version: 1 when first closed, +1 per amendment), and how many
 * samples were folded into it after it first closed.
 */
public record StepMark(StepWindow window, long revision, long lateCount) {

    public StepMark {
        Objects.requireNonNull(window, "window");
    }
}
