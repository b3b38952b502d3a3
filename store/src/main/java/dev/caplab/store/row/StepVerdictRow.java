package dev.caplab.store.row;

import java.util.Map;
import java.util.Objects;

/** A row of {@code step_verdicts}: one StepVerdict, its rule outcomes as Avro's JSON array. */
public record StepVerdictRow(String runId, int stepIndex, Map<String, Double> load, Double x, boolean passed,
                             String outcomesJson, boolean contaminated, String contaminationReason,
                             String bottleneck, long version) {

    public StepVerdictRow {
        Checks.text(runId, "runId");
        load = Checks.map(load, "load");
        Objects.requireNonNull(outcomesJson, "outcomesJson");
        Checks.nonNegative(version, "version");
    }
}
