package dev.caplab.streams.run;

import dev.caplab.streams.step.StepWindow;
import java.util.ArrayList;
import java.util.List;

/**
 * Closes one step, in order: {@link StepAggregation} (its rows), {@link StepJudging} (its verdict and alerts),
 * {@link Fitting#takePoints} (its fit points; the caller refits once after closing or amending steps). A step closes
 * at its next revision each time, from partials that stay until the run expires, so a late sample or a later
 * lifecycle event closes it again and the result depends only on which partials and lifecycle the run has. Also
 * re-opens the closed steps a lifecycle event redefined, and withdraws the steps that left the timeline.
 */
final class StepClosing {

    private final StepAggregation aggregation;
    private final StepJudging judging;
    private final Fitting fitting;

    StepClosing(StepAggregation aggregation, StepJudging judging, Fitting fitting) {
        this.aggregation = aggregation;
        this.judging = judging;
        this.fitting = fitting;
    }

    /**
     * A lifecycle event that changed a closed step's window (a step event arriving after samples closed an inferred
     * or provisional step), or a RunStarted that changes rules, load expression or environment, re-opens the steps
     * from there: they close again from the partials at their next revision.
     */
    static void reopenRedefined(RunState.Mutable run, List<StepWindow> timeline) {
        if (run.startedChanged) {
            run.startedChanged = false;
            // ceilings and the load expression feed the fits even where the points stay the same
            run.fitPointsChanged = run.closedSteps > 0;
            run.closedSteps = 0;
            return;
        }
        for (int i = 0; i < run.closedSteps; i++) {
            StepMark mark = run.marks.get(i);
            if (mark != null && (i >= timeline.size() || !mark.window().equals(timeline.get(i)))) {
                run.closedSteps = i;
                return;
            }
        }
    }

    /** The step's aggregates, verdict and alerts at its next revision; its fit points replaced. */
    List<DerivedEvent> close(RunState.Mutable run, StepWindow step) {
        StepMark previous = run.marks.get(step.index());
        long revision = previous == null ? 1 : previous.revision() + 1;
        long lateCount = previous == null ? 0 : previous.lateCount();
        run.dirtySteps.remove(step.index());
        AggregatedStep aggregated = aggregation.of(run, step);
        List<DerivedEvent> out = new ArrayList<>(aggregation.rows(run, step, aggregated, revision, lateCount));
        out.addAll(judging.judge(run, step, aggregated, revision, lateCount));
        out.addAll(fitting.takePoints(run, step, aggregated));
        return out;
    }

    /**
     * Steps that left the timeline (inferred steps replaced by fewer declared ones, whatever came first): their
     * aggregates are emptied and their verdicts withdrawn at the next revision and their fit points dropped (the
     * caller refits), so neither readers nor fits keep a step the run no longer has.
     */
    List<DerivedEvent> dropVanished(RunState.Mutable run, List<StepWindow> timeline) {
        List<DerivedEvent> out = new ArrayList<>();
        for (StepMark mark : List.copyOf(run.marks.tailMap(timeline.size()).values())) {
            if (mark.vanished()) {
                continue;
            }
            StepMark gone = mark.vanishing();
            int index = mark.window().index();
            run.marks.put(index, gone);
            run.dirtySteps.remove(index);
            out.add(AggregateRows.emptied(run, index, gone.revision(), mark.window().startMicros()));
            out.add(StepJudging.withdrawn(run.runId, index, gone.revision()));
            Fitting.dropPoints(run, index);
            run.concludeDue = true;
        }
        return out;
    }
}
