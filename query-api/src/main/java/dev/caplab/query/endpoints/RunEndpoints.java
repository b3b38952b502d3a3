package dev.caplab.query.endpoints;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * A run's per-endpoint breakdown and errors, over the whole run and per step, from the tools' per-endpoint rows (never
 * their total rows, which count the same requests again).
 */
@Schema(description = "Per-endpoint and error tables of a run: whole run and per step")
public record RunEndpoints(
        @Schema(description = "the run's id") String runId,
        @Schema(description = "each endpoint over the whole run") List<EndpointView> endpoints,
        @Schema(description = "failures by endpoint, status and message over the whole run") List<ErrorView> errors,
        @Schema(description = "each step's endpoints and errors over its steady part") List<StepEndpoints> steps) {

    public RunEndpoints {
        endpoints = List.copyOf(endpoints);
        errors = List.copyOf(errors);
        steps = List.copyOf(steps);
    }
}
