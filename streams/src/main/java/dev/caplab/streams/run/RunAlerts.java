package dev.caplab.streams.run;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.vocabulary.InputAlerts;
import java.time.Instant;

/**
 * The run processor's alerts about a run's input rather than its results: a record left out (dead-lettered) or a
 * {@link RunLimits} limit reached, spelled as {@link InputAlerts} says.
 */
final class RunAlerts {

    private RunAlerts() {
    }

    static DerivedEvent rejected(String runId, Instant at, String reason) {
        return raise(runId, at, InputAlerts.REJECTED + reason);
    }

    static DerivedEvent limit(String runId, Instant at, String what) {
        return raise(runId, at, InputAlerts.LIMIT + what);
    }

    private static DerivedEvent raise(String runId, Instant at, String message) {
        return new DerivedEvent.Raised(Alert.newBuilder().setRunId(runId).setAt(at).setKind(InputAlerts.KIND)
                .setStepIndex(null).setMessage(message).build());
    }
}
