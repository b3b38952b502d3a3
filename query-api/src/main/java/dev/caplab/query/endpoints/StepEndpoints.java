package dev.caplab.query.endpoints;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The per-endpoint and error tables of one step, over its steady part (warm-up excluded). */
@Schema(description = "One step's endpoints and errors over its steady part, warm-up excluded")
public record StepEndpoints(
        @Schema(description = "the step's index, from 0") int stepIndex,
        @Schema(description = "the step's load dimensions, e.g. users = 40") Map<String, Double> load,
        @Schema(description = "the step's fitted load value (the run's load expression)") Double x,
        @Schema(description = "start of the steady part (the step's start plus its warm-up), UTC") Instant steadyFrom,
        @Schema(description = "end of the step, UTC; null while it is open") Instant endedAt,
        List<EndpointView> endpoints, List<ErrorView> errors) {

    public StepEndpoints {
        load = load == null ? Map.of() : Map.copyOf(load);
        endpoints = List.copyOf(endpoints);
        errors = List.copyOf(errors);
    }
}
