package dev.caplab.streams.run;

import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.step.StepInference;
import dev.caplab.streams.step.StepWindow;
import java.util.ArrayList;
import java.util.List;

/** A run's steps in index order: the declared ones when it has step events, else those inferred from its load level. */
final class Timeline {

    private Timeline() {
    }

    static List<StepWindow> of(RunState.Mutable run, TopologySettings settings) {
        long runEnd = run.runEndedMicros >= 0 ? run.runEndedMicros : StepWindow.OPEN;
        if (!run.declared.isEmpty()) {
            List<StepWindow> steps = new ArrayList<>();
            for (StepWindow w : run.declared.values()) {
                // A step still open when the run ended ends with the run.
                steps.add(w.isOpen() && runEnd != StepWindow.OPEN ? w.endingAt(runEnd) : w);
            }
            return steps;
        }
        return StepInference.infer(run.levels, settings.minInferredStep().toNanos() / 1000,
                settings.inferredWarmup().toNanos() / 1000, runEnd);
    }

    /** The wall-clock millis when the end of {@code w} became known, or -1 when it is not known to have ended. */
    static long endSeenWallMillis(RunState.Mutable run, StepWindow w) {
        Long seen = w.inferred() ? null : run.endSeenWallMillis.get(w.index());
        if (seen != null) {
            return seen;
        }
        return run.runEndedMicros >= 0 ? run.runEndSeenWallMillis : -1;
    }
}
