package dev.caplab.ingest.lifecycle;

import dev.caplab.schema.event.RunStatus;
import java.time.Instant;

/** A run ends with a status (COMPLETED unless given) and an optional reason. */
public record RunEndRequest(String runId, RunStatus status, String reason, Instant endedAt) implements LifecycleRequest {

    public RunEndRequest {
        status = status == null ? RunStatus.COMPLETED : status;
    }
}
