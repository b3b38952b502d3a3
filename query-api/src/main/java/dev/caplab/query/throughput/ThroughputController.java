package dev.caplab.query.throughput;

import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import io.swagger.v3.oas.annotations.Operation;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/runs/{runId}/throughput}: JSON the whole picture, CSV one row per step. */
@RestController
@RequiresScope(Scope.READ)
@RequestMapping("/api/v1/runs/{runId}")
class ThroughputController {

    private final ThroughputService throughput;

    ThroughputController(ThroughputService throughput) {
        this.throughput = throughput;
    }

    @Operation(summary = "Throughput and latency against load: per step requests/s, error ratio, p50/p95/p99 "
            + "(merged sketches), the throughput limit with its interval, SLO lines and warnings",
            description = "CSV (Accept: text/csv or ?format=csv) gives the per-step rows")
    @GetMapping(value = "/throughput", produces = MediaType.APPLICATION_JSON_VALUE)
    RunThroughput json(@PathVariable String runId) {
        return throughput.of(runId);
    }

    @GetMapping(value = "/throughput", produces = "text/csv")
    List<ThroughputStep> csv(@PathVariable String runId) {
        return throughput.of(runId).steps();
    }
}
