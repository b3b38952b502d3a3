package dev.caplab.store.row;

import java.util.Map;
import java.util.Objects;

/**
 * A row of {@code step_verdicts}: one StepVerdict, its rule outcomes as Avro's JSON array; {@code lateCount} samples
 * reached the step after it first closed (the verdict was amended when it is above 0).
 */
public record StepVerdictRow(String runId, int stepIndex, Map<String, Double> load, Double x, boolean passed,
                             String outcomesJson, boolean contaminated, String contaminationReason,
                             String bottleneck, long version, long lateCount) {

    public StepVerdictRow {
        Checks.text(runId, "runId");
        load = Checks.map(load, "load");
        Objects.requireNonNull(outcomesJson, "outcomesJson");
        Checks.nonNegative(version, "version");
        Checks.nonNegative(lateCount, "lateCount");
    }

    /** A verdict no late sample amended. */
    public StepVerdictRow(String runId, int stepIndex, Map<String, Double> load, Double x, boolean passed,
            String outcomesJson, boolean contaminated, String contaminationReason, String bottleneck, long version) {
        this(runId, stepIndex, load, x, passed, outcomesJson, contaminated, contaminationReason, bottleneck, version,
                0);
    }
}
