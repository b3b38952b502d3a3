package dev.caplab.query.steps;

import java.time.Instant;
import java.util.Map;

/**
 * One load step of a run with its verdict: the load dimensions and the fitted x, when it ran, whether it passed
 * (null while no verdict exists), whether another process contaminated it, and what hit its ceiling first.
 */
public record StepView(String runId, int stepIndex, Map<String, Double> load, Double x, Instant startedAt,
                       Instant endedAt, long warmupMillis, Boolean passed, boolean contaminated,
                       String contaminationReason, String bottleneck, String failedRules) {

    public StepView {
        load = load == null ? Map.of() : Map.copyOf(load);
    }
}
