package dev.caplab.store.row;

import java.time.Instant;
import java.util.Objects;

/** A row of {@code alerts}: raised while a test runs; {@code stepIndex} is null for run-wide alerts. */
public record AlertRow(String runId, Instant at, String kind, Integer stepIndex, String message)
        implements RunScopedRow {

    public AlertRow {
        Checks.text(runId, "runId");
        Objects.requireNonNull(at, "at");
        Checks.text(kind, "kind");
        Objects.requireNonNull(message, "message");
    }
}
