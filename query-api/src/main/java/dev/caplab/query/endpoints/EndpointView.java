package dev.caplab.query.endpoints;

import io.swagger.v3.oas.annotations.media.Schema;

/** One endpoint's traffic over a step's steady part or over the whole run, as the load tool reported it. */
@Schema(description = "One endpoint (request name, method, status) over a step's steady part or the whole run")
public record EndpointView(
        @Schema(description = "the request name the tool reports (Locust name, k6 name tag, JMeter transaction)")
        String name,
        @Schema(description = "HTTP method, empty when the tool does not say (JMeter's listener)")
        String method,
        @Schema(description = "HTTP status code when the tool tags it (k6 status), else empty")
        String status,
        @Schema(description = "requests counted, unit: requests")
        Long requests,
        @Schema(description = "mean request rate, unit: requests per second")
        Double requestsPerSecond,
        @Schema(description = "failed requests among them, unit: requests")
        Long failures,
        @Schema(description = "failures / requests, a fraction in [0, 1]")
        Double errorRatio,
        @Schema(description = "median latency, unit: milliseconds; null when the tool ships none")
        Double p50Ms,
        @Schema(description = "95th percentile latency, unit: milliseconds; null when the tool ships none")
        Double p95Ms,
        @Schema(description = "99th percentile latency, unit: milliseconds; null when the tool ships none")
        Double p99Ms,
        @Schema(description = "where the counts and percentiles come from and how they were combined, in words")
        String how) {
}
