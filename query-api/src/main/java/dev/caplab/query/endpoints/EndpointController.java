package dev.caplab.query.endpoints;

import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import io.swagger.v3.oas.annotations.Operation;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/runs/{runId}/endpoints}: the run's per-endpoint and error tables, per run and per step. */
@RestController
@RequiresScope(Scope.READ)
@RequestMapping("/api/v1/runs/{runId}")
class EndpointController {

    private final EndpointService endpoints;

    EndpointController(EndpointService endpoints) {
        this.endpoints = endpoints;
    }

    @Operation(summary = "Per-endpoint traffic and errors: per run and per step (steady part), name, method, "
            + "status, requests, requests/s, failures, error ratio, p50/p95/p99 in ms with how they were combined; "
            + "errors by endpoint, status and message",
            description = "Read from the tools' per-endpoint rows in the raw samples (Locust name/method, k6 "
                    + "name/method/status, JMeter transaction); a tool's total row is never one of them.")
    @GetMapping(value = "/endpoints", produces = MediaType.APPLICATION_JSON_VALUE)
    RunEndpoints json(@PathVariable String runId) {
        return endpoints.of(runId);
    }
}
