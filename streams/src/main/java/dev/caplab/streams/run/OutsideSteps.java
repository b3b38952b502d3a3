package dev.caplab.streams.run;

import dev.caplab.streams.Micros;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.aggregate.Partial;
import dev.caplab.streams.aggregate.SeriesStats;
import dev.caplab.streams.aggregate.StepStatistics;
import dev.caplab.streams.step.StepWindow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The aggregation of the seconds outside every step: the baseline before the first step (whose sustained values give
 * the steps their baseline deltas) and the unassigned seconds (gaps between steps, after the last one).
 */
final class OutsideSteps {

    private final PartialStore partials;
    private final TopologySettings settings;

    OutsideSteps(PartialStore partials, TopologySettings settings) {
        this.partials = partials;
        this.settings = settings;
    }

    /**
     * The pre-test baseline: aggregates of the seconds before the first step, and each series' sustained value kept
     * for the steps' baseline deltas. Returns true in {@code changed[0]} when those values differ from before.
     */
    List<DerivedEvent> baseline(RunState.Mutable run, long firstStepStart, boolean[] changed) {
        run.baselineDirty = false;
        List<Partial> before = partials.range(run.runId, Long.MIN_VALUE, firstStepStart);
        List<DerivedEvent> out = new ArrayList<>();
        Map<String, Double> values = new TreeMap<>();
        if (!before.isEmpty()) {
            run.baselineRevision++;
            long from = before.stream().mapToLong(Partial::bucketMicros).min().orElseThrow();
            int max = settings.limits().maxBaselineSeries();
            for (SeriesStats s : StepStatistics.of(before, 0, settings)) {
                if (Double.isFinite(s.sustained()) && values.size() < max) {
                    values.put(AggregateRows.baselineKey(s), s.sustained());
                } else if (Double.isFinite(s.sustained()) && run.firstTimeReached(RunState.Limit.BASELINE_SERIES)) {
                    out.add(RunAlerts.limit(run.runId, Micros.toInstant(firstStepStart), "more than " + max
                            + " baseline series; the others get no baseline delta"));
                }
                out.add(AggregateRows.of(run, StepWindow.BASELINE_INDEX, Map.of(), null, s, from, firstStepStart,
                        false, run.baselineRevision, 0));
            }
        } else if (run.baselineRevision > 0) {
            // The first step now starts at or before the earliest sample (its start arrived late, or earlier load
            // levels did): the baseline rows emitted before describe nothing any more.
            out.add(AggregateRows.emptied(run, StepWindow.BASELINE_INDEX, ++run.baselineRevision, firstStepStart));
        }
        changed[0] = !values.equals(run.baseline);
        run.baseline.clear();
        run.baseline.putAll(values);
        return out;
    }

    /** Aggregates of every second of the run outside the baseline and every step (gaps, after the last step). */
    List<DerivedEvent> unassigned(RunState.Mutable run, List<StepWindow> timeline) {
        run.unassignedDirty = false;
        long firstStart = timeline.isEmpty() ? Long.MIN_VALUE : timeline.getFirst().startMicros();
        List<Partial> outside = outsideSteps(run.runId, timeline, firstStart);
        if (outside.isEmpty()) {
            return run.unassignedVersion == 0 ? List.of() : List.of(AggregateRows.emptied(run,
                    StepWindow.UNASSIGNED_INDEX, ++run.unassignedVersion, firstStart == Long.MIN_VALUE ? 0 : firstStart));
        }
        run.unassignedVersion++;
        long from = outside.stream().mapToLong(Partial::bucketMicros).min().orElseThrow();
        long to = outside.stream().mapToLong(Partial::bucketMicros).max().orElseThrow() + settings.bucketMicros();
        List<DerivedEvent> out = new ArrayList<>();
        for (SeriesStats s : StepStatistics.of(outside, 0, settings)) {
            out.add(AggregateRows.of(run, StepWindow.UNASSIGNED_INDEX, Map.of(), null, s, from, to, false,
                    run.unassignedVersion, 0));
        }
        return out;
    }

    /**
     * The run's partials from {@code fromMicros} on that no step of {@code timeline} contains, in key order: read
     * as ranges over the gaps between steps and after the last, so closing a long run reads its unassigned seconds,
     * not every partial it has.
     */
    private List<Partial> outsideSteps(String runId, List<StepWindow> timeline, long fromMicros) {
        List<StepWindow> byStart = timeline.stream().sorted(Comparator.comparingLong(StepWindow::startMicros)).toList();
        List<Partial> out = new ArrayList<>();
        long cursor = fromMicros;
        for (StepWindow w : byStart) {
            if (w.startMicros() > cursor) {
                out.addAll(partials.range(runId, cursor, w.startMicros()));
            }
            cursor = Math.max(cursor, w.endMicros());
        }
        if (cursor < StepWindow.OPEN) {
            out.addAll(partials.range(runId, cursor, StepWindow.OPEN));
        }
        return out;
    }
}
