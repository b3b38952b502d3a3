package dev.caplab.ingest.lifecycle;

import java.time.Instant;
import java.util.Map;

/** A note on the run's timeline, e.g. "stopped competing container". */
public record AnnotationRequest(String runId, String text, Map<String, String> labels, Instant at)
        implements LifecycleRequest {

    public AnnotationRequest {
        if (text == null || text.isBlank()) {
            throw new InvalidLifecycleRequestException("annotation text is required");
        }
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }
}
