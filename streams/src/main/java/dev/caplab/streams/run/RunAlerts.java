package dev.caplab.streams.run;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.AlertKind;
import java.time.Instant;

/**
 * Alerts about a run's input rather than its results: a record left out (dead-lettered) or a {@link RunLimits}
 * limit reached. The schema's {@link AlertKind} has no symbol for these, and adding one would break the forward
 * compatibility pinned against released readers (an enum without a default), so they are raised as
 * {@link #KIND} without a step index, their message saying what happened; the one place to change once the schema
 * gets a kind for them.
 */
public final class RunAlerts {

    /** The kind input alerts carry; their {@code stepIndex} is null. */
    public static final AlertKind KIND = AlertKind.STEP_FAILED;
    /** Message prefix of an alert for an input record left out. */
    public static final String REJECTED = "input rejected: ";
    /** Message prefix of an alert for a limit reached. */
    public static final String LIMIT = "limit reached: ";

    private RunAlerts() {
    }

    static DerivedEvent rejected(String runId, Instant at, String reason) {
        return raise(runId, at, REJECTED + reason);
    }

    static DerivedEvent limit(String runId, Instant at, String what) {
        return raise(runId, at, LIMIT + what);
    }

    private static DerivedEvent raise(String runId, Instant at, String message) {
        return new DerivedEvent.Raised(Alert.newBuilder().setRunId(runId).setAt(at).setKind(KIND).setStepIndex(null)
                .setMessage(message).build());
    }
}
