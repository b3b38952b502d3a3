package dev.caplab.ingest.http;

import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import dev.caplab.ingest.k6.K6JsonReader;
import dev.caplab.ingest.parse.ParseError;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Upload of a k6 JSON output file ({@code curl --data-binary @results.json[.gz]}), one request per file or chunk. */
@RestController
@Tag(name = "ingest")
class K6Controller {

    static final String PATH = "/api/v1/k6";

    private final K6JsonReader reader;

    K6Controller(K6JsonReader reader) {
        this.reader = reader;
    }

    @PostMapping(PATH)
    @RequiresScope(Scope.WRITE)
    @Operation(summary = "k6 JSON output (Metric and Point lines, gzip or not)",
            description = "Points become samples of the run named by their run/run_id tag, else by ?run=.")
    @ApiResponse(responseCode = "200", description = "all lines accepted and acknowledged by Kafka")
    @ApiResponse(responseCode = "400", description = "some lines rejected: all valid points were still published")
    ResponseEntity<Map<String, Object>> upload(@RequestParam(required = false) String run,
            @RequestParam(required = false) String source,
            HttpServletRequest request) throws IOException {
        // already gunzipped and bounded by IngestRequestFilter; read whole so a 413 publishes nothing
        byte[] body = request.getInputStream().readAllBytes();
        K6JsonReader.Outcome outcome = reader.read(new ByteArrayInputStream(body), run, source);
        if (outcome.errors().isEmpty()) {
            return ResponseEntity.ok(Map.of("accepted", outcome.samplesPublished()));
        }
        return ResponseEntity.badRequest().body(Map.of("accepted", outcome.samplesPublished(),
                "rejected", outcome.errors().size(),
                "error", outcome.errors().stream().limit(20).map(ParseError::describe)
                        .collect(Collectors.joining("; "))));
    }
}
