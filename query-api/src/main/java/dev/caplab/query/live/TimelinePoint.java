package dev.caplab.query.live;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;

/**
 * One bucket of a run's time series, from its raw samples: the load (mean level of the load-level gauges summed over
 * their series, else the x of the step the bucket starts in), requests completed per second, the 95th percentile of
 * the requests' latency in milliseconds, failed requests per second and their share of all requests. A figure the
 * bucket has no samples for is null.
 */
public record TimelinePoint(@Schema(description = "start of the bucket") Instant at,
                            @Schema(description = "load in the bucket (see the timeline's loadSource)") Double load,
                            @Schema(description = "requests per second") Double requestsPerSecond,
                            @Schema(description = "95th percentile of request latency, milliseconds")
                            Double latencyP95Ms,
                            @Schema(description = "failed requests per second") Double errorsPerSecond,
                            @Schema(description = "failed requests / requests, 0..1") Double errorRatio) {
}
