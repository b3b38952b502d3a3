package dev.caplab.store.row;

import dev.caplab.schema.event.RunConclusion;
import java.util.Objects;

/**
 * What the store refuses of a run conclusion before it becomes a row of {@code run_conclusions}: a blank run id or
 * model, negative step counts or version, a margin outside (0, 1], a time its {@code DateTime64} column would clamp
 * without a word. Each check throws an {@link IllegalArgumentException} naming the field, which the sink turns into a
 * dead letter and an alert for that conclusion alone.
 */
public final class RunConclusionChecks {

    private RunConclusionChecks() {
    }

    /** {@code c} when the store can keep it as it is. */
    public static RunConclusion checked(RunConclusion c) {
        Checks.text(c.getRunId(), "runId");
        Checks.nonNegative(c.getStepsJudged(), "stepsJudged");
        Checks.nonNegative(c.getStepsSkipped(), "stepsSkipped");
        if (!(c.getMargin() > 0 && c.getMargin() <= 1)) {
            throw new IllegalArgumentException("run " + c.getRunId() + ": margin must be in (0, 1], was "
                    + c.getMargin());
        }
        c.getResources().forEach(e -> Checks.text(e.getMetric(), "resources.metric"));
        Checks.text(c.getModel(), "model");
        Checks.storable(Objects.requireNonNull(c.getConcludedAt(), "concludedAt"), "concludedAt");
        Checks.nonNegative(c.getVersion(), "version");
        if (c.getThroughputLimit() != null) {
            Checks.nonNegative(c.getThroughputLimit().getStepsUsed(), "throughputLimit.stepsUsed");
            Checks.storable(c.getThroughputLimit().getFittedAt(), "throughputLimit.fittedAt");
            if ((c.getThroughputLimit().getGeneratorSaturatedAtX() == null)
                    != (c.getThroughputLimit().getGeneratorCpuPercent() == null)) {
                throw new IllegalArgumentException("run " + c.getRunId() + ": the generator's x and CPU go together,"
                        + " got " + c.getThroughputLimit().getGeneratorSaturatedAtX() + "/"
                        + c.getThroughputLimit().getGeneratorCpuPercent());
            }
        }
        if (c.getEgressCeiling() != null) {
            Checks.text(c.getEgressCeiling().getSource(), "egressCeiling.source");
            Checks.storable(c.getEgressCeiling().getMeasuredAt(), "egressCeiling.measuredAt");
        }
        return c;
    }
}
