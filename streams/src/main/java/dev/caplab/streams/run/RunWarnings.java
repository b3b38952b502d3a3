package dev.caplab.streams.run;

import dev.caplab.analysis.conclusion.RunWarningKind;
import dev.caplab.schema.event.RunWarning;
import dev.caplab.streams.Micros;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.step.LevelPoint;
import dev.caplab.streams.step.SampleKeys;
import dev.caplab.streams.step.StepWindow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

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
        if (run.runClosed && run.declared.isEmpty() && !timeline.isEmpty()) {
            shortLastLevel(run.levels, timeline, settings).ifPresent(out::add);
        }
        if (run.runEndedMicros >= 0 && run.maxEventMicros > run.runEndedMicros) {
            out.add(afterEnd(run));
        }
        return out;
    }

    /**
     * The run's last positive load level when it is above every inferred step's and held less than a step needs: a
     * test stopped (or a tool's file flushed) before its heaviest level became a step. A ramp down (lower levels after
     * the last step) is no such thing and says nothing.
     */
    static Optional<RunWarning> shortLastLevel(List<LevelPoint> levels, List<StepWindow> timeline,
            TopologySettings settings) {
        List<LevelPoint> positive = levels.stream().filter(p -> p.level() > 0)
                .sorted(Comparator.comparingLong(LevelPoint::timestampMicros)).toList();
        if (positive.isEmpty()) {
            return Optional.empty();
        }
        LevelPoint last = positive.getLast();
        double highestStep = timeline.stream().flatMap(w -> w.load().values().stream())
                .mapToDouble(Double::doubleValue).max().orElse(0);
        if (last.level() <= highestStep) {
            return Optional.empty();
        }
        long first = last.timestampMicros();
        for (int i = positive.size() - 1; i >= 0 && positive.get(i).level() == last.level(); i--) {
            first = positive.get(i).timestampMicros();
        }
        long heldMicros = SampleKeys.bucketOf(last.timestampMicros()) + SampleKeys.BUCKET_MICROS
                - SampleKeys.bucketOf(first);
        return Optional.of(RunWarningKind.SHORT_LAST_LEVEL.warning("The last load level ("
                + last.metric() + "=" + level(last.level()) + ", from " + Micros.toInstant(first) + ") was "
                + "reported for " + heldMicros / 1_000_000 + " s, less than the " + seconds(settings.minInferredStep())
                + " a step needs, so it is no step and its samples are in none: the heaviest load of the test is "
                + "missing from the verdicts and fits. Hold the last level longer (Locust writes its CSV every 10 s: "
                + "hold it 10 s more), or declare steps."));
    }

    private static RunWarning noLoadMetric(TopologySettings settings) {
        return RunWarningKind.NO_LOAD_METRIC.warning("The run has no step: it has no step events and none of "
                + "its samples is a recognised load metric (" + String.join(", ", settings.loadLevelMetrics())
                + "), so nothing was aggregated per step, judged or fitted. Send the load level under one of those "
                + "names (k6 sends vus, Locust locust.users), or declare steps (caplab step --run R --index 0 "
                + "--load users=50, or step_started/step_ended in POST /api/v1/events); when the fit's x is not the "
                + "load level itself, set loadExpression on the run start (caplab run start --load-expression "
                + "'users*2').");
    }

    private static RunWarning noStep(TopologySettings settings) {
        return RunWarningKind.NO_STEP.warning("The run has no step: its load level ("
                + String.join(", ", settings.loadLevelMetrics()) + ") never held one positive value for "
                + seconds(settings.minInferredStep()) + ", the shortest plateau taken for a step. Hold each load "
                + "level longer, or declare steps (caplab step, or step_started/step_ended in POST /api/v1/events).");
    }

    /** Says only the end, which is in the events: the latest sample moves with every one and re-emits nothing. */
    private static RunWarning afterEnd(RunState.Mutable run) {
        return RunWarningKind.SAMPLES_AFTER_END.warning("Samples came after the run's end at "
                + Micros.toInstant(run.runEndedMicros) + ": they are stored but belong to no step. A new test needs a "
                + "new run id; a test written to a run nobody started, after it ended idle, gets the next id "
                + "(<run>.2, <run>.3, ...) by itself.");
    }

    private static String level(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    private static String seconds(Duration d) {
        return d.toSeconds() + " s";
    }
}
