package dev.caplab.store.row;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunDeleted;
import dev.caplab.schema.event.RunLateness;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.StepVerdict;
import java.util.Objects;

/**
 * What the store refuses of an event before it becomes a row of its table: a blank key, a negative count, a time its
 * {@code DateTime64} column would clamp without a word. Each check throws an {@link IllegalArgumentException} naming
 * the field, which the sink turns into a dead letter and an alert for that event alone.
 */
public final class RowChecks {

    private RowChecks() {
    }

    /** A step's aggregate of one series. */
    public static StepAggregate aggregate(StepAggregate a) {
        Checks.text(a.getRunId(), "runId");
        Objects.requireNonNull(a.getLoad(), "load");
        Checks.text(a.getSource(), "source");
        Checks.text(a.getMetric(), "metric");
        Objects.requireNonNull(a.getKind(), "kind");
        Checks.nonNegative(a.getCount(), "count");
        Checks.nonNegative(a.getWarmupCount(), "warmupCount");
        Checks.storable(Objects.requireNonNull(a.getWindowStart(), "windowStart"), "windowStart");
        Checks.storable(Objects.requireNonNull(a.getWindowEnd(), "windowEnd"), "windowEnd");
        if (a.getWindowEnd().isBefore(a.getWindowStart())) {
            throw new IllegalArgumentException("window of " + a.getRunId() + " step " + a.getStepIndex() + " "
                    + a.getMetric() + " ends before it starts");
        }
        Checks.nonNegative(a.getVersion(), "version");
        Checks.nonNegative(a.getLateCount(), "lateCount");
        return a;
    }

    /** A run's late-data counts. */
    public static RunLateness lateness(RunLateness l) {
        Checks.text(l.getRunId(), "runId");
        Checks.nonNegative(l.getLateSamples(), "lateSamples");
        Checks.nonNegative(l.getBeyondLatenessSamples(), "beyondLatenessSamples");
        Checks.storable(Objects.requireNonNull(l.getUpdatedAt(), "updatedAt"), "updatedAt");
        Checks.nonNegative(l.getVersion(), "version");
        return l;
    }

    /** An alert raised during a run. */
    public static Alert alert(Alert a) {
        Checks.text(a.getRunId(), "runId");
        Checks.storable(Objects.requireNonNull(a.getAt(), "at"), "at");
        Objects.requireNonNull(a.getKind(), "kind");
        Objects.requireNonNull(a.getMessage(), "message");
        return a;
    }

    /** A note on a run's timeline. */
    public static Annotation annotation(Annotation a) {
        Checks.text(a.getRunId(), "runId");
        Checks.storable(Objects.requireNonNull(a.getAt(), "at"), "at");
        Objects.requireNonNull(a.getText(), "text");
        Objects.requireNonNull(a.getLabels(), "labels");
        return a;
    }

    /** A step's verdict. */
    public static StepVerdict verdict(StepVerdict v) {
        Checks.text(v.getRunId(), "runId");
        Objects.requireNonNull(v.getLoad(), "load");
        Objects.requireNonNull(v.getOutcomes(), "outcomes");
        Checks.nonNegative(v.getVersion(), "version");
        Checks.nonNegative(v.getLateCount(), "lateCount");
        Checks.storable(v.getWindowStart(), "windowStart");
        Checks.storable(v.getWindowEnd(), "windowEnd");
        return v;
    }

    /** A fit of one series against the run's load. */
    public static CapacityFit fit(CapacityFit f) {
        Checks.text(f.getRunId(), "runId");
        Checks.text(f.getSource(), "source");
        Checks.text(f.getMetric(), "metric");
        Checks.text(f.getModel(), "model");
        Objects.requireNonNull(f.getModelVersion(), "modelVersion");
        Objects.requireNonNull(f.getLoadExpression(), "loadExpression");
        Checks.nonNegative(f.getStepsUsed(), "stepsUsed");
        Objects.requireNonNull(f.getSegments(), "segments");
        Objects.requireNonNull(f.getBreakpoints(), "breakpoints");
        if (!(f.getMargin() > 0 && f.getMargin() <= 1)) {
            throw new IllegalArgumentException("fit of " + f.getRunId() + " " + f.getMetric() + "@" + f.getSource()
                    + ": margin must be in (0, 1], was " + f.getMargin());
        }
        Checks.storable(Objects.requireNonNull(f.getFittedAt(), "fittedAt"), "fittedAt");
        Checks.nonNegative(f.getVersion(), "version");
        return f;
    }

    /** A client's deletion of a run. */
    public static RunDeleted deletion(RunDeleted d) {
        Checks.text(d.getRunId(), "runId");
        Checks.storable(Objects.requireNonNull(d.getDeletedAt(), "deletedAt"), "deletedAt");
        return d;
    }

    /** A run's conclusion: its margin in (0, 1], the generator's two figures together. */
    public static RunConclusion conclusion(RunConclusion c) {
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
