package dev.caplab.ingest.lifecycle;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.time.Instant;
import java.util.Map;

/** A step at a constant load begins; samples in its first {@code warmupSeconds} are excluded from sustained figures. */
// bound directly by the /api/v1/runs endpoints, where no "type" property is needed
@JsonTypeInfo(use = JsonTypeInfo.Id.NONE)
public record StepStartRequest(String runId, int index, Map<String, Double> load, double warmupSeconds,
        Instant startedAt) implements LifecycleRequest {

    public StepStartRequest {
        if (index < 0) {
            throw new InvalidLifecycleRequestException("step index must be >= 0, was " + index);
        }
        if (load == null || load.isEmpty()) {
            throw new InvalidLifecycleRequestException("step " + index + ": load dimensions are required, e.g. users=400");
        }
        load = Map.copyOf(load);
        if (!(warmupSeconds >= 0) || Double.isInfinite(warmupSeconds)) {
            throw new InvalidLifecycleRequestException("step " + index + ": warmupSeconds must be >= 0, was "
                    + warmupSeconds);
        }
    }
}
