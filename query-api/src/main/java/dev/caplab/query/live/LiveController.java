package dev.caplab.query.live;

import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import dev.caplab.query.web.BadRequestParameterException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A run while it runs: its live status and its time series, both read from the store at each request. The page polls
 * them (every 2 s while the run is RUNNING) rather than holding a server-sent event stream: a poll carries the page's
 * token in its Authorization header (EventSource cannot), any API instance can answer it, and no instance keeps a
 * connection or state per viewer.
 */
@RestController
@RequiresScope(Scope.READ)
@RequestMapping("/api/v1/runs/{runId}")
class LiveController {

    private final LiveService live;
    private final TimelineService timeline;

    LiveController(LiveService live, TimelineService timeline) {
        this.live = live;
        this.timeline = timeline;
    }

    @Operation(summary = "Where a run stands now: status, elapsed time, samples/s, current step, verdicts so far, "
            + "how and when it ends")
    @GetMapping("/live")
    LiveRun live(@PathVariable String runId) {
        return live.of(runId);
    }

    @Operation(summary = "A run's load, requests/s, p95 latency and errors over time, per bucket, from its raw samples")
    @GetMapping("/timeline")
    RunTimeline timeline(@PathVariable String runId,
                         @Parameter(description = "bucket width in seconds, 1..3600; default: the smallest of 5, "
                                 + "10, 15, 30 s, 1, 2, 5, 10, 15, 30 min or 1 h giving at most 150 points")
                         @RequestParam(required = false) Integer bucketSeconds) {
        if (bucketSeconds != null && (bucketSeconds < 1 || bucketSeconds > TimelineService.MAX_BUCKET_SECONDS)) {
            throw new BadRequestParameterException("bucketSeconds", bucketSeconds, "must be 1.."
                    + TimelineService.MAX_BUCKET_SECONDS);
        }
        return timeline.of(runId, bucketSeconds);
    }
}
