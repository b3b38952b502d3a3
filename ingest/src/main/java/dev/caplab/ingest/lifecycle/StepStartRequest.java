package dev.caplab.ingest.lifecycle;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.time.Instant;
import java.util.Map;

/**
 * A step at a constant load begins; samples in its first {@code warmupSeconds} (0 when left out) are excluded from
 * sustained figures. {@code startedAt} defaults to now.
 */
// bound directly by the /api/v1/runs endpoints, where no "type" property is needed
@JsonTypeInfo(use = JsonTypeInfo.Id.NONE)
public record StepStartRequest(String runId, Integer index, Map<String, Double> load, Double warmupSeconds,
        Instant startedAt) implements LifecycleRequest {

    public StepStartRequest {
        if (index == null) {
            throw new InvalidLifecycleRequestException("step index is required (0 for the first step)");
        }
        if (index < 0) {
            throw new InvalidLifecycleRequestException("step index must be >= 0, was " + index);
        }
        if (load == null || load.isEmpty()) {
            throw new InvalidLifecycleRequestException("step " + index + ": load dimensions are required, e.g. users=400");
        }
        load = Map.copyOf(load);
        warmupSeconds = warmupSeconds == null ? 0.0 : warmupSeconds;
        if (!(warmupSeconds >= 0) || Double.isInfinite(warmupSeconds)) {
            throw new InvalidLifecycleRequestException("step " + index + ": warmupSeconds must be >= 0, was "
                    + warmupSeconds);
        }
    }
}
