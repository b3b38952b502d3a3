package dev.caplab.store.row;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/** A row of {@code steps}: StepStarted, and after StepEnded the same step with {@code endedAt} and a higher version. */
public record StepRow(String runId, int stepIndex, Map<String, Double> load, Instant startedAt, long warmupMicros,
                      Instant endedAt, long version) implements RunScopedRow {

    public StepRow {
        Checks.text(runId, "runId");
        if (stepIndex < 0) {
            throw new IllegalArgumentException("stepIndex must be >= 0, was " + stepIndex);
        }
        load = Checks.sortedMap(load, "load");
        Checks.storable(Objects.requireNonNull(startedAt, "startedAt"), "startedAt");
        Checks.storable(endedAt, "endedAt");
        Checks.nonNegative(warmupMicros, "warmupMicros");
        Checks.nonNegative(version, "version");
    }
}
