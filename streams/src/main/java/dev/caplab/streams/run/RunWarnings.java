package dev.caplab.streams.run;

import dev.caplab.analysis.conclusion.RunWarning;
import dev.caplab.streams.Micros;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.step.StepWindow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The warnings a run's conclusion carries, decided from what the run received (its steps, load levels, end and
 * largest sample time), never from the order it came in, so a replay or any arrival order gives the same ones.
 */
final class RunWarnings {

    private RunWarnings() {
    }

    static List<RunWarning> of(RunState.Mutable run, List<StepWindow> timeline, TopologySettings settings) {
        List<RunWarning> out = new ArrayList<>();
        if (run.runClosed && timeline.isEmpty() && run.declared.isEmpty()) {
            out.add(run.levels.isEmpty() ? noLoadMetric(settings) : noStep(settings));
        }
        if (run.runEndedMicros >= 0 && run.maxEventMicros > run.runEndedMicros) {
            out.add(afterEnd(run));
        }
        return out;
    }

    private static RunWarning noLoadMetric(TopologySettings settings) {
        return new RunWarning(RunWarning.Kind.NO_LOAD_METRIC, "The run has no step: it has no step events and none of "
                + "its samples is a recognised load metric (" + String.join(", ", settings.loadLevelMetrics())
                + "), so nothing was aggregated per step, judged or fitted. Send the load level under one of those "
                + "names (k6 sends vus, Locust locust.users), or declare steps (caplab step --run R --index 0 "
                + "--load users=50, or step_started/step_ended in POST /api/v1/events); when the fit's x is not the "
                + "load level itself, set loadExpression on the run start (caplab run start --load-expression "
                + "'users*2').");
    }

    private static RunWarning noStep(TopologySettings settings) {
        return new RunWarning(RunWarning.Kind.NO_STEP, "The run has no step: its load level ("
                + String.join(", ", settings.loadLevelMetrics()) + ") never held one positive value for "
                + seconds(settings.minInferredStep()) + ", the shortest plateau taken for a step. Hold each load "
                + "level longer, or declare steps (caplab step, or step_started/step_ended in POST /api/v1/events).");
    }

    /** Says only the end, which is in the events: the latest sample moves with every one and re-emits nothing. */
    private static RunWarning afterEnd(RunState.Mutable run) {
        return new RunWarning(RunWarning.Kind.SAMPLES_AFTER_END, "Samples came after the run's end at "
                + Micros.toInstant(run.runEndedMicros) + ": they are stored but belong to no step. A new test needs a "
                + "new run id; a test written to a run nobody started, after it ended idle, gets the next id "
                + "(<run>.2, <run>.3, ...) by itself.");
    }

    private static String seconds(Duration d) {
        return d.toSeconds() + " s";
    }
}
