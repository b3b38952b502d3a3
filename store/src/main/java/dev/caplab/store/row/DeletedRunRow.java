package dev.caplab.store.row;

import java.time.Instant;
import java.util.Objects;

/**
 * A row of {@code deleted_runs}: a run a client deleted, when, and why (null when no reason was given).
 *
 * @param deletedAt when the deletion was requested
 * @param reason    the client's reason, or null
 */
public record DeletedRunRow(String runId, Instant deletedAt, String reason) implements RunScopedRow {

    public DeletedRunRow {
        Checks.text(runId, "runId");
        Checks.storable(Objects.requireNonNull(deletedAt, "deletedAt"), "deletedAt");
    }
}
