package dev.caplab.query.endpoints;

import io.swagger.v3.oas.annotations.media.Schema;

/** Failures of one endpoint with one status and message, as the load tool reported them. */
@Schema(description = "Failed requests of one endpoint with one status and message")
public record ErrorView(
        @Schema(description = "the request name; empty when the tool reports the error for all requests (JMeter)")
        String name,
        @Schema(description = "HTTP method, empty when the tool does not say")
        String method,
        @Schema(description = "HTTP status code when the tool tags it (k6 status, JMeter responseCode), else empty")
        String status,
        @Schema(description = "the tool's failure message (Locust and k6 error, JMeter responseMessage), else empty")
        String message,
        @Schema(description = "failed requests, unit: requests")
        long occurrences) {
}
