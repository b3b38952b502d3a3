package dev.caplab.ingest.http;

import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import dev.caplab.ingest.k6.K6JsonParser;
import dev.caplab.ingest.k6.K6JsonReader;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.publish.RoutedSamples;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Clock;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Upload of a k6 JSON output file ({@code curl --data-binary @results.json[.gz]}), one request per file or chunk.
 * Parsed and checked whole, then its valid points published in one Kafka transaction (same rule as {@code /write}).
 */
@RestController
@Tag(name = "ingest")
class K6Controller {

    static final String PATH = "/api/v1/k6";

    private final AckedPublisher publisher;
    private final SampleChecks checks;
    private final Clock clock = Clock.systemUTC();

    K6Controller(AckedPublisher publisher, SampleChecks checks) {
        this.publisher = publisher;
        this.checks = checks;
    }

    @PostMapping(PATH)
    @RequiresScope(Scope.WRITE)
    @Operation(summary = "k6 JSON output (Metric and Point lines, gzip or not)",
            description = "Points become samples of the run named by their run/run_id tag, else by ?run=.")
    @ApiResponse(responseCode = "200", description = "all lines accepted and committed to Kafka")
    @ApiResponse(responseCode = "400", description = "the listed lines were rejected (line, field, reason); every "
            + "other line was stored")
    @ApiResponse(responseCode = "413", description = "body or sample count too large; nothing stored")
    @ApiResponse(responseCode = "503", description = "Kafka did not commit; nothing stored, retry")
    ResponseEntity<Map<String, Object>> upload(@RequestParam(required = false) String run,
            @RequestParam(required = false) String source,
            HttpServletRequest request) throws IOException {
        // already gunzipped and bounded by IngestRequestFilter; read whole so a 413 publishes nothing
        byte[] body = request.getInputStream().readAllBytes();
        RoutedSamples.Builder parsed = new RoutedSamples.Builder(checks.limits().maxSamplesPerRequest());
        K6JsonReader.parseAll(new ByteArrayInputStream(body), new K6JsonParser(run, source, checks, clock), parsed);
        RoutedSamples routed = parsed.build();
        publisher.samples(routed, K6JsonParser.ADAPTER);
        if (!routed.hasErrors()) {
            return ResponseEntity.ok(Map.of("accepted", routed.sampleCount()));
        }
        return ResponseEntity.badRequest().body(Map.of("accepted", routed.sampleCount(),
                "rejected", routed.errors().size(), "error", PartialWrite.describe(routed)));
    }
}
