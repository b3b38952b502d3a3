package dev.caplab.store.row;

import java.time.Instant;
import java.util.Objects;

/**
 * A row of {@code run_lateness}: how many of a run's samples came late and amended its steps, and how many came
 * beyond the allowed lateness (stored raw, in no aggregate); cumulative, the highest version wins.
 */
public record RunLatenessRow(String runId, long lateSamples, long beyondLatenessSamples, Instant updatedAt,
                             long version) implements RunScopedRow {

    public RunLatenessRow {
        Checks.text(runId, "runId");
        Checks.nonNegative(lateSamples, "lateSamples");
        Checks.nonNegative(beyondLatenessSamples, "beyondLatenessSamples");
        Checks.storable(Objects.requireNonNull(updatedAt, "updatedAt"), "updatedAt");
        Checks.nonNegative(version, "version");
    }
}
