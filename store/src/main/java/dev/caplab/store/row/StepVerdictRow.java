package dev.caplab.store.row;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A row of {@code step_verdicts}: one StepVerdict with its rule outcomes; {@code lateCount} samples
 * reached the step after it first closed (the verdict was amended when it is above 0). A {@code withdrawn} row says
 * the step left the run's timeline: it supersedes the step's earlier verdict, and readers skip it. A step that is not
 * {@code judged} had no SLO rules to be judged against: {@code passed} says nothing about it. The window is the step's
 * bounds and warm-up as the run's timeline has them (null in rows written before they were kept).
 */
public record StepVerdictRow(String runId, int stepIndex, Map<String, Double> load, Double x, boolean passed,
                             List<RuleOutcomeValue> outcomes, boolean contaminated, String contaminationReason,
                             String bottleneck, long version, long lateCount, boolean withdrawn, boolean judged,
                             Instant windowStart, Instant windowEnd, Long warmupMicros) implements RunScopedRow {

    public StepVerdictRow {
        Checks.text(runId, "runId");
        load = Checks.sortedMap(load, "load");
        outcomes = List.copyOf(Objects.requireNonNull(outcomes, "outcomes"));
        Checks.nonNegative(version, "version");
        Checks.nonNegative(lateCount, "lateCount");
    }

    /** A verdict of a step the run still has. */
    public StepVerdictRow(String runId, int stepIndex, Map<String, Double> load, Double x, boolean passed,
            List<RuleOutcomeValue> outcomes, boolean contaminated, String contaminationReason, String bottleneck,
            long version, long lateCount) {
        this(runId, stepIndex, load, x, passed, outcomes, contaminated, contaminationReason, bottleneck, version,
                lateCount, false, true, null, null, null);
    }

    /** A verdict no late sample amended. */
    public StepVerdictRow(String runId, int stepIndex, Map<String, Double> load, Double x, boolean passed,
            List<RuleOutcomeValue> outcomes, boolean contaminated, String contaminationReason, String bottleneck,
            long version) {
        this(runId, stepIndex, load, x, passed, outcomes, contaminated, contaminationReason, bottleneck, version,
                0);
    }
}
