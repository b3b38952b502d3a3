package dev.caplab.ingest.lifecycle;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.caplab.schema.event.RunStatus;
import java.time.Instant;

/**
 * A run ends with a status (COMPLETED unless given) and an optional reason. {@code allSamplesSent} (false unless
 * given): the sender vouches that every sample of the run, from every source, was acknowledged before this request,
 * so caplab closes the run's last steps at once instead of waiting its grace for stragglers.
 */
// bound directly by the /api/v1/runs endpoints, where no "type" property is needed
@JsonTypeInfo(use = JsonTypeInfo.Id.NONE)
public record RunEndRequest(String runId, RunStatus status, String reason, Instant endedAt, Boolean allSamplesSent)
        implements LifecycleRequest {

    public RunEndRequest {
        status = status == null ? RunStatus.COMPLETED : status;
        allSamplesSent = Boolean.TRUE.equals(allSamplesSent); // absent from most bodies: false
    }
}
