package dev.caplab.ingest.lifecycle;

import java.util.Objects;

/** A request names a run the lifecycle topic never told of: no start, end or deletion of it was seen. */
public final class UnknownRunException extends RuntimeException {

    private final String runId;

    public UnknownRunException(String runId) {
        super("no run with id '" + runId + "'");
        this.runId = Objects.requireNonNull(runId, "runId");
    }

    public String runId() {
        return runId;
    }
}
