package dev.caplab.streams.run;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.AlertKind;
import dev.caplab.schema.vocabulary.InputAlerts;
import dev.caplab.streams.Micros;
import dev.caplab.streams.step.StepWindow;
import java.time.Instant;

/**
 * The run processor's alerts: about a run's input (a record left out, dead-lettered, or a {@link RunLimits} limit
 * reached, spelled as {@link InputAlerts} says), and about a step's result, stamped with the step's end.
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

    static DerivedEvent step(RunState.Mutable run, StepWindow step, AlertKind kind, String message) {
        return new DerivedEvent.Raised(Alert.newBuilder().setRunId(run.runId).setAt(Micros.toInstant(step.endMicros()))
                .setKind(kind).setStepIndex(step.index()).setMessage(message).build());
    }

    private static DerivedEvent raise(String runId, Instant at, String message) {
        return new DerivedEvent.Raised(Alert.newBuilder().setRunId(runId).setAt(at).setKind(InputAlerts.KIND)
                .setStepIndex(null).setMessage(message).build());
    }
}
