package dev.caplab.ingest.lifecycle;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/** One lifecycle event as the CLI and the HTTP APIs describe it, before it becomes an Avro event. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = RunStartRequest.class, name = "run_started"),
        @JsonSubTypes.Type(value = StepStartRequest.class, name = "step_started"),
        @JsonSubTypes.Type(value = StepEndRequest.class, name = "step_ended"),
        @JsonSubTypes.Type(value = RunEndRequest.class, name = "run_ended"),
        @JsonSubTypes.Type(value = AnnotationRequest.class, name = "annotation")})
public sealed interface LifecycleRequest
        permits RunStartRequest, StepStartRequest, StepEndRequest, RunEndRequest, AnnotationRequest {

    /** The run, or null when the enclosing request names it (URL path, batch default). */
    String runId();
}
