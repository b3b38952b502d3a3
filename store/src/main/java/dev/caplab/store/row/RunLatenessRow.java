package dev.caplab.store.row;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A row of {@code run_lateness}, as the API serves it: how many of a run's samples came late, each folded into a step
 * after it first closed and so amending it (a higher version of its aggregates, verdict and the run's fits), and how
 * many came beyond the allowed lateness (stored raw in {@code samples}, in no aggregate or fit); cumulative, the
 * highest version wins. Run id, time and version are storage's: the API names the run beside the counts, and a run
 * nothing came late for has no row to date ({@link #none}).
 */
public record RunLatenessRow(@JsonIgnore String runId, long lateSamples, long beyondLatenessSamples,
                             @JsonIgnore Instant updatedAt, @JsonIgnore long version) implements RunScopedRow {

    public RunLatenessRow {
        Checks.text(runId, "runId");
        Checks.nonNegative(lateSamples, "lateSamples");
        Checks.nonNegative(beyondLatenessSamples, "beyondLatenessSamples");
        Checks.storable(Objects.requireNonNull(updatedAt, "updatedAt"), "updatedAt");
        Checks.nonNegative(version, "version");
    }

    /** The counts of a run nothing came late for, which has no stored row: zero, version 0 at the epoch. */
    public static RunLatenessRow none(String runId) {
        return new RunLatenessRow(runId, 0, 0, Instant.EPOCH, 0);
    }

    /** The stored counts of {@code runId}, or {@link #none} when nothing came late for it. */
    public static RunLatenessRow of(String runId, Optional<RunLatenessRow> stored) {
        return stored.orElseGet(() -> none(runId));
    }
}
