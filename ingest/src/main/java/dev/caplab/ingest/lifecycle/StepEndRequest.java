package dev.caplab.ingest.lifecycle;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.time.Instant;

/** A step ends (at {@code endedAt}, or now). */
// bound directly by the /api/v1/runs endpoints, where no "type" property is needed
@JsonTypeInfo(use = JsonTypeInfo.Id.NONE)
public record StepEndRequest(String runId, Integer index, Instant endedAt) implements LifecycleRequest {

    public StepEndRequest {
        if (index == null) {
            throw new InvalidLifecycleRequestException("step index is required (the step to end)");
        }
        if (index < 0) {
            throw new InvalidLifecycleRequestException("step index must be >= 0, was " + index);
        }
    }
}
