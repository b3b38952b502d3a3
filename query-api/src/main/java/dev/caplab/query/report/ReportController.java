package dev.caplab.query.report;

import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequiresScope(Scope.READ)
class ReportController {

    private final ReportService reports;

    ReportController(ReportService reports) {
        this.reports = reports;
    }

    @Operation(summary = "A run's report as one self-contained HTML file (opens offline)",
            description = "environment, steps and verdicts, fits with knees and intervals, resource use against "
                    + "ceilings, throughput and latency against load, the capacity plan, alerts and lateness")
    @GetMapping(value = "/api/v1/runs/{runId}/report", produces = MediaType.TEXT_HTML_VALUE)
    ResponseEntity<String> run(@PathVariable String runId) {
        return html(reports.html(List.of(runId)));
    }

    @Operation(summary = "Several runs side by side in one self-contained HTML file (shared axes where comparable)")
    @GetMapping(value = "/api/v1/report", produces = MediaType.TEXT_HTML_VALUE)
    ResponseEntity<String> runs(@Parameter(description = "run id, repeatable, in the order of the columns")
                                @RequestParam(name = "run", required = false) List<String> runIds) {
        return html(reports.html(runIds));
    }

    private static ResponseEntity<String> html(String document) {
        return ResponseEntity.ok().contentType(new MediaType(MediaType.TEXT_HTML, java.nio.charset.StandardCharsets.UTF_8))
                .header("Content-Security-Policy", ReportHtml.CONTENT_SECURITY_POLICY)
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .body(document);
    }
}
