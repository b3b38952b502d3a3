package dev.caplab.ingest.lifecycle;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.caplab.schema.event.RunStatus;
import java.time.Instant;

/** A run ends with a status (COMPLETED unless given) and an optional reason. */
// bound directly by the /api/v1/runs endpoints, where no "type" property is needed
@JsonTypeInfo(use = JsonTypeInfo.Id.NONE)
public record RunEndRequest(String runId, RunStatus status, String reason, Instant endedAt) implements LifecycleRequest {

    public RunEndRequest {
        status = status == null ? RunStatus.COMPLETED : status;
    }
}
