package dev.caplab.streams.run;

import dev.caplab.schema.event.SampleKind;
import dev.caplab.streams.Micros;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.aggregate.BufferedSample;
import dev.caplab.streams.aggregate.StepStatistics;
import dev.caplab.streams.step.LevelChanges;
import dev.caplab.streams.step.LevelPoint;
import dev.caplab.streams.step.SampleKeys;
import dev.caplab.streams.step.StepWindow;
import java.util.List;

/**
 * The step-assignment stage: places admitted samples on the run's timeline. A load-level sample of a run without
 * step events is kept for step inference ({@link LevelChanges}); a sample that reaches a part of the run already
 * emitted (a closed step, the baseline, the unassigned seconds) marks it to amend and counts as late; a counter
 * reading just before a closed step marks that step too; samples advance the run's event time. The samples
 * themselves go to the partials, which every step is computed from; a second belongs to the step its start falls in.
 */
final class StepAssignment {

    private final TopologySettings settings;
    private final RunLimits limits;

    StepAssignment(TopologySettings settings) {
        this.settings = settings;
        this.limits = settings.limits();
    }

    /** Assigns {@code samples} to the run; returns how many were late. Limit alerts go to {@code alerts}. */
    int assign(RunState.Mutable run, List<BufferedSample> samples, List<DerivedEvent> alerts) {
        List<StepWindow> timeline = run.closedSteps > 0 || run.runClosed ? Timeline.of(run, settings) : List.of();
        int late = 0;
        for (BufferedSample b : samples) {
            long t = b.timestampMicros();
            if (run.declared.isEmpty() && settings.loadLevelMetrics().contains(b.metric())
                    && LevelChanges.add(run.levels, new LevelPoint(b.metric(), t, b.value()), limits.maxLevelChanges())
                    == LevelChanges.Added.FULL && run.firstTimeReached(RunState.Limit.LEVEL_CHANGES)) {
                alerts.add(RunAlerts.limit(run.runId, Micros.toInstant(t), "more than " + limits.maxLevelChanges()
                        + " load-level changes; later changes are ignored for step inference"));
            }
            if (run.runEndedMicros >= 0 && run.maxEventMicros <= run.runEndedMicros && t > run.runEndedMicros) {
                run.concludeDue = true; // the conclusion now warns of samples after the end (RunWarnings)
            }
            if (b.kind() == SampleKind.COUNTER) {
                markNextStepIfPrior(run, timeline, t);
            }
            if (markIfLate(run, timeline, t)) {
                run.lateSamples++;
                late++;
            }
            run.observeEventTime(t);
        }
        return late;
    }

    /**
     * Whether a sample at {@code tMicros} reaches a part of the run already emitted: a closed step (marked to amend,
     * its late count raised), the baseline once the first step closed, or the unassigned seconds once the run
     * closed. A second belongs to the step its start falls in, as {@link PartialStore#range} reads it.
     */
    private static boolean markIfLate(RunState.Mutable run, List<StepWindow> timeline, long tMicros) {
        long second = SampleKeys.bucketOf(tMicros);
        int closed = Math.min(run.closedSteps, timeline.size());
        for (int i = 0; i < closed; i++) {
            StepMark mark = run.marks.get(i);
            if (timeline.get(i).contains(second) && mark != null) {
                run.marks.put(i, mark.withLateSample());
                run.dirtySteps.add(i);
                return true;
            }
        }
        if (closed > 0 && second < timeline.getFirst().startMicros()) {
            run.baselineDirty = true;
            return true;
        }
        if (run.runClosed && timeline.stream().noneMatch(w -> w.contains(second))) {
            run.unassignedDirty = true;
            return true;
        }
        return false;
    }

    /**
     * A counter reading may be the last one before a closed step, from which that step's increase runs
     * ({@link StepStatistics}): the first closed step starting after it, within the lookback, is marked to amend.
     */
    private static void markNextStepIfPrior(RunState.Mutable run, List<StepWindow> timeline, long tMicros) {
        long second = SampleKeys.bucketOf(tMicros);
        int closed = Math.min(run.closedSteps, timeline.size());
        for (int i = 0; i < closed; i++) {
            long start = timeline.get(i).startMicros();
            if (start > second) {
                if (start - second <= StepStatistics.COUNTER_LOOKBACK_MICROS && run.marks.get(i) != null) {
                    run.dirtySteps.add(i);
                }
                return;
            }
        }
    }
}
