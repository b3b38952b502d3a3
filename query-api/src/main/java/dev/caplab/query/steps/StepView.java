package dev.caplab.query.steps;

import java.time.Instant;
import java.util.Map;

/**
 * One load step of a run with its verdict: the load dimensions and the fitted x, when it ran (declared, or inferred
 * from the load level) and its warm-up, whether it passed (null while no verdict exists, or when no rule judged it:
 * {@code judged} false), whether another process contaminated it, what hit its ceiling first, and how many
 * samples reached it after it first closed: a step with any is amended (its verdict and aggregates were re-emitted).
 */
public record StepView(String runId, int stepIndex, Map<String, Double> load, Double x, Instant startedAt,
                       Instant endedAt, long warmupMillis, Boolean passed, boolean contaminated,
                       String contaminationReason, String bottleneck, String failedRules, long lateSamples,
                       boolean amended, boolean judged) {

    public StepView {
        load = load == null ? Map.of() : Map.copyOf(load);
        if (!judged && passed != null) {
            throw new IllegalArgumentException("step " + stepIndex + " of run " + runId + " was not judged but "
                    + "passed is " + passed);
        }
        if (amended != amended(lateSamples)) {
            throw new IllegalArgumentException("step " + stepIndex + " of run " + runId + ": amended is " + amended
                    + " but " + lateSamples + " samples came late");
        }
    }

    /** A step whose amendment follows from its late samples. */
    public StepView(String runId, int stepIndex, Map<String, Double> load, Double x, Instant startedAt,
            Instant endedAt, long warmupMillis, Boolean passed, boolean contaminated, String contaminationReason,
            String bottleneck, String failedRules, long lateSamples) {
        this(runId, stepIndex, load, x, startedAt, endedAt, warmupMillis, passed, contaminated, contaminationReason,
                bottleneck, failedRules, lateSamples, amended(lateSamples), true);
    }

    /** A step is amended when any sample reached it after it first closed (StepVerdict.lateCount > 0). */
    static boolean amended(long lateSamples) {
        return lateSamples > 0;
    }
}
