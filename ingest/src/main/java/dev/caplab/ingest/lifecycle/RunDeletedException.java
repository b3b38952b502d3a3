package dev.caplab.ingest.lifecycle;

import java.time.Instant;
import java.util.Objects;

/** A request names a run a client deleted: nothing more of it is taken, and it cannot be deleted again. */
public final class RunDeletedException extends RuntimeException {

    private final String runId;
    private final Instant deletedAt;

    public RunDeletedException(String runId, Instant deletedAt) {
        super("run '" + runId + "' was deleted at " + deletedAt);
        this.runId = Objects.requireNonNull(runId, "runId");
        this.deletedAt = Objects.requireNonNull(deletedAt, "deletedAt");
    }

    public String runId() {
        return runId;
    }

    public Instant deletedAt() {
        return deletedAt;
    }
}
