package dev.caplab.ingest.lifecycle;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.time.Instant;
import java.util.Map;

/** A note on the run's timeline, e.g. "stopped competing container". */
// bound directly by the /api/v1/runs endpoints, where no "type" property is needed
@JsonTypeInfo(use = JsonTypeInfo.Id.NONE)
public record AnnotationRequest(String runId, String text, Map<String, String> labels, Instant at)
        implements LifecycleRequest {

    public AnnotationRequest {
        if (text == null || text.isBlank()) {
            throw new InvalidLifecycleRequestException("annotation text is required");
        }
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }
}
