package dev.caplab.ingest.lifecycle;

import java.time.Instant;

/** A step ends (at {@code endedAt}, or now). */
public record StepEndRequest(String runId, int index, Instant endedAt) implements LifecycleRequest {

    public StepEndRequest {
        if (index < 0) {
            throw new InvalidLifecycleRequestException("step index must be >= 0, was " + index);
        }
    }
}
