package dev.caplab.streams.run;

import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.schema.event.RunThroughputLimit;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.streams.fit.FitPoint;
import dev.caplab.streams.step.LevelPoint;
import dev.caplab.streams.step.StepWindow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Everything the topology remembers about one run between records: its start event, declared steps (with the wall
 * time their end was seen), load-level points for inference, event-time progress, how many steps are closed, the
 * baseline, the fit points of finished steps and which cliffs were already alerted.
 *
 * @param started               null until RunStarted arrives
 * @param endSeenWallMillis     step index → wall-clock millis when its StepEnded was processed
 * @param maxEventMicros        the run's event time: the largest sample timestamp seen
 * @param runEndedMicros        RunEnded time, or -1
 * @param closedSteps           how many steps of the timeline (in index order) are closed
 * @param baseline              "source|metric" → sustained value before the first step
 * @param unassignedVersion     how many times the unassigned aggregates were emitted
 * @param lateSamples           samples that arrived after their step had closed (counted into unassigned)
 * @param lastInputWallMillis   wall-clock millis of the run's last input record (idle runs expire from it)
 * @param alertedLimits         which {@link RunLimits} the run already got an alert for (bits of {@link Limit})
 * @param marks                 closed step index → what it was last emitted with
 * @param dirtySteps            closed steps a late sample changed, to re-emit (throttled)
 * @param baselineDirty         a late sample changed the pre-test baseline
 * @param fitRevision           how many times the run's fits were emitted (their local version)
 * @param baselineRevision      how many times the baseline aggregates were emitted
 * @param beyondLateness        samples that arrived after the run's state expired (kept raw only)
 * @param latenessEmitted       lateSamples + beyondLateness when RunLateness was last emitted
 * @param latenessRevision      how many times RunLateness was emitted
 * @param lastAmendWallMillis   wall-clock millis of the run's last amendment (amendments are throttled)
 * @param expired               the run's partials were deleted; only the counts are kept
 * @param estimates             the per-resource capacity estimates of the run's latest refit, without the safe capacity
 *                              and role the conclusion gives them
 * @param conclusionRevision    how many times the run conclusion was emitted (its local version)
 * @param pendingEnds           step index → end micros of a StepEnded that arrived before its StepStarted (applied
 *                              when the start arrives: lifecycle events may come in any order)
 * @param throughputLimit       the throughput limit of the latest refit's request-rate fit with the fit's steps and
 *                              time, without the generator flag the conclusion gives it; null when it showed none
 */
public record RunState(String runId, RunStarted started, List<StepWindow> declared, Map<Integer, Long> endSeenWallMillis,
                       List<LevelPoint> levels, long maxEventMicros, long runEndedMicros, long runEndSeenWallMillis,
                       int closedSteps, Map<String, Double> baseline, List<FitPoint> fitPoints, Set<String> cliffs,
                       boolean runClosed, boolean unassignedDirty, long unassignedVersion, long lateSamples,
                       long lastInputWallMillis, int alertedLimits, Map<Integer, StepMark> marks,
                       Set<Integer> dirtySteps, boolean baselineDirty, long fitRevision, long baselineRevision,
                       long beyondLateness, long latenessEmitted, long latenessRevision, long lastAmendWallMillis,
                       boolean expired, List<ResourceEstimate> estimates, long conclusionRevision,
                       Map<Integer, Long> pendingEnds, RunThroughputLimit throughputLimit) {

    /** A limit of {@link RunLimits} a run can reach; each is alerted once per run. */
    public enum Limit {
        SAMPLE_FIELDS, LEVEL_CHANGES, BASELINE_SERIES, FIT_SERIES, STATE_BYTES;

        int bit() {
            return 1 << ordinal();
        }
    }

    public RunState {
        Objects.requireNonNull(runId, "runId");
        declared = List.copyOf(declared);
        endSeenWallMillis = Map.copyOf(endSeenWallMillis);
        levels = List.copyOf(levels);
        baseline = Map.copyOf(baseline);
        fitPoints = List.copyOf(fitPoints);
        cliffs = Set.copyOf(cliffs);
        marks = Map.copyOf(marks);
        dirtySteps = Set.copyOf(dirtySteps);
        estimates = List.copyOf(estimates);
        pendingEnds = Map.copyOf(pendingEnds);
    }

    public static RunState empty(String runId) {
        return new RunState(runId, null, List.of(), Map.of(), List.of(), 0, -1, 0, 0, Map.of(), List.of(), Set.of(),
                false, false, 0, 0, 0, 0, Map.of(), Set.of(), false, 0, 0, 0, 0, 0, 0, false, List.of(), 0, Map.of(), null);
    }

    public boolean ended() {
        return runEndedMicros >= 0;
    }

    /** A builder-style copy for the processor, which changes several fields per record. */
    public Mutable toMutable() {
        return new Mutable(this);
    }

    /** Mutable working copy of a {@link RunState}, confined to one processor call. */
    public static final class Mutable {
        final String runId;
        RunStarted started;
        final TreeMap<Integer, StepWindow> declared = new TreeMap<>();
        final TreeMap<Integer, Long> endSeenWallMillis;
        final List<LevelPoint> levels;
        long maxEventMicros;
        long runEndedMicros;
        long runEndSeenWallMillis;
        int closedSteps;
        final TreeMap<String, Double> baseline;
        final List<FitPoint> fitPoints;
        final TreeSet<String> cliffs;
        boolean runClosed;
        boolean unassignedDirty;
        long unassignedVersion;
        long lateSamples;
        long lastInputWallMillis;
        int alertedLimits;
        final TreeMap<Integer, StepMark> marks;
        final TreeSet<Integer> dirtySteps;
        boolean baselineDirty;
        long fitRevision;
        long baselineRevision;
        long beyondLateness;
        long latenessEmitted;
        long latenessRevision;
        long lastAmendWallMillis;
        boolean expired;
        final List<ResourceEstimate> estimates;
        long conclusionRevision;
        final TreeMap<Integer, Long> pendingEnds;
        RunThroughputLimit throughputLimit;
        /** Transient: a step, the fits or the run closed in this record (the run conclusion is then emitted). */
        boolean concludeDue;
        /**
         * Transient: the fits of this record's latest refit, not yet forwarded; the conclusion flags its bottleneck's
         * fit among them.
         */
        final List<dev.caplab.schema.event.CapacityFit> refitted = new ArrayList<>();
        /** Transient: a RunStarted changed in this record (closed steps are then computed again). */
        boolean startedChanged;
        /** Transient: a closed step's fit points changed in this record (the run's fits are then refitted). */
        boolean fitPointsChanged;

        Mutable(RunState s) {
            runId = s.runId;
            started = s.started;
            s.declared.forEach(w -> declared.put(w.index(), w));
            endSeenWallMillis = new TreeMap<>(s.endSeenWallMillis);
            levels = new ArrayList<>(s.levels);
            maxEventMicros = s.maxEventMicros;
            runEndedMicros = s.runEndedMicros;
            runEndSeenWallMillis = s.runEndSeenWallMillis;
            closedSteps = s.closedSteps;
            baseline = new TreeMap<>(s.baseline);
            fitPoints = new ArrayList<>(s.fitPoints);
            cliffs = new TreeSet<>(s.cliffs);
            runClosed = s.runClosed;
            unassignedDirty = s.unassignedDirty;
            unassignedVersion = s.unassignedVersion;
            lateSamples = s.lateSamples;
            lastInputWallMillis = s.lastInputWallMillis;
            alertedLimits = s.alertedLimits;
            marks = new TreeMap<>(s.marks);
            dirtySteps = new TreeSet<>(s.dirtySteps);
            baselineDirty = s.baselineDirty;
            fitRevision = s.fitRevision;
            baselineRevision = s.baselineRevision;
            beyondLateness = s.beyondLateness;
            latenessEmitted = s.latenessEmitted;
            latenessRevision = s.latenessRevision;
            lastAmendWallMillis = s.lastAmendWallMillis;
            expired = s.expired;
            estimates = new ArrayList<>(s.estimates);
            conclusionRevision = s.conclusionRevision;
            pendingEnds = new TreeMap<>(s.pendingEnds);
            throughputLimit = s.throughputLimit;
        }

        RunState freeze() {
            return new RunState(runId, started, List.copyOf(declared.values()), endSeenWallMillis, levels,
                    maxEventMicros, runEndedMicros, runEndSeenWallMillis, closedSteps, baseline, fitPoints, cliffs,
                    runClosed, unassignedDirty, unassignedVersion, lateSamples, lastInputWallMillis, alertedLimits,
                    marks, dirtySteps, baselineDirty, fitRevision, baselineRevision, beyondLateness, latenessEmitted,
                    latenessRevision, lastAmendWallMillis, expired, estimates, conclusionRevision, pendingEnds,
                    throughputLimit);
        }

        /** Marks {@code limit} as reached; true the first time, when the run should be alerted. */
        boolean firstTimeReached(Limit limit) {
            boolean first = (alertedLimits & limit.bit()) == 0;
            alertedLimits |= limit.bit();
            return first;
        }

        void observeEventTime(long tMicros) {
            maxEventMicros = Math.max(maxEventMicros, tMicros);
        }
    }
}
