package dev.caplab.store.row;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.caplab.schema.event.RuleOutcome;
import dev.caplab.schema.event.StepVerdict;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * One load step of a run with its verdict, as the run has it: the load dimensions and the fitted x, when it ran
 * (declared, or inferred from the load level) and its warm-up, whether it passed (null while no verdict exists, or
 * when no rule judged it: {@code judged} false), whether another process contaminated it, what hit its ceiling first,
 * the outcomes of its SLO rules (null while no verdict exists), and how many samples reached it after it first closed: a step with any is amended
 * (its verdict and aggregates were re-emitted). Made from a run's stored steps and verdicts by {@link #of}.
 */
public record RunStep(String runId, int stepIndex, Map<String, Double> load, Double x, Instant startedAt,
                      Instant endedAt, long warmupMillis, Boolean passed, boolean contaminated,
                      String contaminationReason, String bottleneck, @JsonIgnore List<RuleOutcome> outcomes,
                      long lateSamples, boolean amended, boolean judged) {

    public RunStep {
        load = Checks.sortedMap(load == null ? Map.of() : load, "load");
        outcomes = outcomes == null ? null : List.copyOf(outcomes);
        if (!judged && passed != null) {
            throw new IllegalArgumentException("step " + stepIndex + " of run " + runId + " was not judged but "
                    + "passed is " + passed);
        }
        if (amended != amended(lateSamples)) {
            throw new IllegalArgumentException("step " + stepIndex + " of run " + runId + ": amended is " + amended
                    + " but " + lateSamples + " samples came late");
        }
    }

    /** A judged step whose amendment follows from its late samples. */
    public RunStep(String runId, int stepIndex, Map<String, Double> load, Double x, Instant startedAt,
            Instant endedAt, long warmupMillis, Boolean passed, boolean contaminated, String contaminationReason,
            String bottleneck, List<RuleOutcome> outcomes, long lateSamples) {
        this(runId, stepIndex, load, x, startedAt, endedAt, warmupMillis, passed, contaminated, contaminationReason,
                bottleneck, outcomes, lateSamples, amended(lateSamples), true);
    }

    /**
     * A run's steps with their verdicts, by step index, from its stored steps and verdicts. A run's steps are its
     * declared ones once it has any, as streams' timeline has them: a verdict of a step inferred from the load level
     * before the declaration arrived, at an index no declared step has, belongs to a step the run no longer has.
     * Without declared steps, the judged (inferred) steps are the run's steps.
     */
    public static List<RunStep> of(String runId, List<StepRow> steps, List<StepVerdict> verdicts) {
        Map<Integer, StepRow> started = new TreeMap<>();
        steps.forEach(s -> started.put(s.stepIndex(), s));
        Map<Integer, StepVerdict> judged = new TreeMap<>();
        verdicts.forEach(v -> judged.put(v.getStepIndex(), v));
        Set<Integer> indexes = started.isEmpty() ? judged.keySet() : started.keySet();
        return indexes.stream().map(i -> step(runId, i, started.get(i), judged.get(i))).toList();
    }

    private static RunStep step(String runId, int stepIndex, StepRow s, StepVerdict v) {
        // an inferred step has no StepStarted row: its bounds are those its verdict was computed over
        Instant startedAt = s != null ? s.startedAt() : v.getWindowStart();
        Instant endedAt = s != null ? s.endedAt() : v.getWindowEnd();
        long warmupMicros = s != null ? s.warmupMicros() : v.getWarmupMicros() == null ? 0 : v.getWarmupMicros();
        boolean judged = v == null || v.getJudged();
        long late = v == null ? 0 : v.getLateCount();
        return new RunStep(runId, stepIndex, s != null ? s.load() : v.getLoad(), v == null ? null : v.getX(),
                startedAt, endedAt, warmupMicros / 1_000L, v == null || !judged ? null : v.getPassed(),
                v != null && v.getContaminated(), v == null ? null : v.getContaminationReason(),
                v == null ? null : v.getBottleneck(), v == null ? null : v.getOutcomes(), late, amended(late), judged);
    }

    /**
     * The highest load a run tested: the largest x of its steps that closed with one (a step has its x from its
     * verdict); null before any did. A safe capacity beyond it is a straight line extrapolated, not a measured load.
     */
    public static Double testedToX(List<RunStep> steps) {
        return steps.stream().map(RunStep::x).filter(Objects::nonNull).max(Double::compare).orElse(null);
    }

    /** A step is amended when any sample reached it after it first closed (StepVerdict.lateCount > 0). */
    public static boolean amended(long lateSamples) {
        return lateSamples > 0;
    }
}
