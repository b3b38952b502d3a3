package dev.caplab.query.live;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * A run's load, request rate, p95 latency and errors over time, one point per bucket of {@code bucketSeconds}
 * (aligned to the epoch), computed by ClickHouse over the run's raw samples at every request.
 */
public record RunTimeline(String runId,
                          @Schema(description = "width of each bucket, seconds") int bucketSeconds,
                          @Schema(description = "what load is: the load-level metrics summed, 'steps' (the x of "
                                  + "the step each bucket starts in) or null without either") String loadSource,
                          @Schema(description = "where requests come from: per-request latency samples, request "
                                  + "counters, or null without either") String requestSource,
                          List<TimelinePoint> points) {

    public RunTimeline {
        points = List.copyOf(points);
    }
}
