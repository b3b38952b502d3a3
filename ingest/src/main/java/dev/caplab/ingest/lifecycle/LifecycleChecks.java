package dev.caplab.ingest.lifecycle;

import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.parse.SampleChecks.LimitException;
import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.RunDeleted;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.text.Utf8Bytes;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;

/**
 * The door for lifecycle events, with the limits samples have ({@link SampleChecks}): run id and names not blank and
 * bounded, labels bounded, times inside the accepted window, free text no longer than a label value. Field names
 * are the request's JSON names.
 */
public final class LifecycleChecks {

    private final SampleChecks checks;

    public LifecycleChecks(SampleChecks checks) {
        this.checks = Objects.requireNonNull(checks, "checks");
    }

    /** Throws {@link LimitException} naming the first field beyond a limit. */
    public void check(SpecificRecord event, Instant now) {
        switch (event) {
            case RunStarted r -> {
                checks.name("runId", r.getRunId());
                checks.timestamp("startedAt", r.getStartedAt(), now);
                checks.name("sut", r.getSut().getName());
                checks.name("tool", r.getTool());
                checks.labels(r.getLabels());
                r.getPlannedSteps().forEach(step -> dimensions("plannedSteps", step));
                text("loadExpression", r.getLoadExpression());
            }
            case StepStarted s -> {
                checks.name("runId", s.getRunId());
                checks.timestamp("startedAt", s.getStartedAt(), now);
                dimensions("load", s.getLoad());
            }
            case StepEnded s -> {
                checks.name("runId", s.getRunId());
                checks.timestamp("endedAt", s.getEndedAt(), now);
            }
            case RunEnded e -> {
                checks.name("runId", e.getRunId());
                checks.timestamp("endedAt", e.getEndedAt(), now);
                text("reason", e.getReason());
            }
            case Annotation a -> {
                checks.name("runId", a.getRunId());
                checks.timestamp("at", a.getAt(), now);
                text("text", a.getText());
                checks.labels(a.getLabels());
            }
            case RunDeleted d -> {
                checks.name("runId", d.getRunId());
                checks.timestamp("deletedAt", d.getDeletedAt(), now);
                text("reason", d.getReason());
            }
            default -> throw new IllegalArgumentException("not a lifecycle event: " + event.getSchema().getName());
        }
    }

    private void dimensions(String field, Map<String, Double> load) {
        for (String dimension : load.keySet()) {
            checks.name(field + "." + dimension, dimension);
        }
    }

    /** Free text (annotation, end reason, load expression): at most a label value's size. */
    private void text(String field, CharSequence value) {
        if (value == null) {
            return;
        }
        int bytes = Utf8Bytes.of(value);
        if (bytes > checks.limits().sample().maxLabelValueBytes()) {
            throw new LimitException(field, "is " + bytes + " bytes, over the limit of "
                    + checks.limits().sample().maxLabelValueBytes() + " bytes");
        }
    }
}
