package dev.caplab.ingest.http;

import dev.caplab.access.BoundedBody;
import dev.caplab.access.BodyTooLargeException;
import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import dev.caplab.ingest.influx.TimestampPrecision;
import dev.caplab.ingest.publish.RoutedSamples;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * InfluxDB 2.x compatible {@code /api/v2/write}, so Telegraf's {@code outputs.influxdb_v2}, the influxdb-client
 * libraries and k6's xk6-output-influxdb write unchanged. {@code bucket} is the default run id as {@code db} is for
 * {@code /write} (a {@code run}/{@code run_id} tag overrides it per line); {@code org} is accepted and ignored.
 * Authenticate with {@code Authorization: Token <caplab token>}. Same parser, checks and one-transaction publishing
 * as {@code /write} ({@link LineProtocolWrites}). Answers as InfluxDB 2 does: 204 when every line was stored, else
 * a JSON {@code {"code": ..., "message": ...}} with v2's codes: 400 {@code invalid} (a partial write: the lines it
 * lists were rejected, every other line was stored; or a bad parameter), 413 {@code request too large} and 503
 * {@code unavailable} (with Retry-After) with nothing stored, 415 {@code unsupported media type} for an unknown
 * Content-Encoding.
 */
@RestController
@Tag(name = "ingest", description = "Write load-test samples and run lifecycle events")
class InfluxV2WriteController {

    static final String PATH = "/api/v2/write";

    private static final Logger log = LoggerFactory.getLogger(InfluxV2WriteController.class);

    private final LineProtocolWrites writes;

    InfluxV2WriteController(LineProtocolWrites writes) {
        this.writes = writes;
    }

    @PostMapping(PATH)
    @RequiresScope(Scope.WRITE)
    @Operation(summary = "InfluxDB 2.x line protocol write",
            description = "Body: line protocol, optionally gzip. bucket = default run id; org is ignored; "
                    + "Authorization: Token <caplab token>.")
    @ApiResponse(responseCode = "204", description = "every line accepted and acknowledged by Kafka")
    @ApiResponse(responseCode = "400", description = "code invalid: the listed lines were rejected, every other line "
            + "was stored; or a bad parameter")
    @ApiResponse(responseCode = "401", description = "missing or unknown token")
    @ApiResponse(responseCode = "413", description = "code 'request too large'; nothing stored")
    @ApiResponse(responseCode = "503", description = "code unavailable: Kafka did not commit; nothing stored, retry")
    ResponseEntity<Map<String, String>> write(
            @Parameter(description = "ignored (InfluxDB organization)") @RequestParam(required = false) String org,
            @Parameter(description = "default run id") @RequestParam(required = false) String bucket,
            @Parameter(description = "ns, us, ms or s (default ns)") @RequestParam(required = false) String precision,
            HttpServletRequest request) throws IOException {
        RoutedSamples routed = writes.write(request.getInputStream().readAllBytes(), precision(precision), bucket);
        if (!routed.hasErrors()) {
            return ResponseEntity.noContent().build();
        }
        return error(HttpStatus.BAD_REQUEST, "invalid", PartialWrite.describe(routed));
    }

    /** The four precisions InfluxDB 2 documents. */
    static TimestampPrecision precision(String value) {
        if (value == null || value.isEmpty()) {
            return TimestampPrecision.NANOSECONDS;
        }
        return switch (value) {
            case "ns" -> TimestampPrecision.NANOSECONDS;
            case "us" -> TimestampPrecision.MICROSECONDS;
            case "ms" -> TimestampPrecision.MILLISECONDS;
            case "s" -> TimestampPrecision.SECONDS;
            default -> throw new IllegalArgumentException("precision must be one of ns, us, ms, s; was '" + value
                    + "'");
        };
    }

    @ExceptionHandler({IllegalArgumentException.class, BoundedBody.CorruptBodyException.class})
    ResponseEntity<Map<String, String>> invalid(Exception e) {
        return error(HttpStatus.BAD_REQUEST, "invalid", e.getMessage());
    }

    @ExceptionHandler(BoundedBody.UnsupportedEncodingException.class)
    ResponseEntity<Map<String, String>> encoding(BoundedBody.UnsupportedEncodingException e) {
        return error(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported media type", e.getMessage());
    }

    @ExceptionHandler(BodyTooLargeException.class)
    ResponseEntity<Map<String, String>> tooLarge(BodyTooLargeException e) {
        return error(HttpStatus.CONTENT_TOO_LARGE, "request too large", e.getMessage());
    }

    @ExceptionHandler(RoutedSamples.TooManySamplesException.class)
    ResponseEntity<Map<String, String>> tooManySamples(RoutedSamples.TooManySamplesException e) {
        return error(HttpStatus.CONTENT_TOO_LARGE, "request too large", e.getMessage() + "; nothing was stored");
    }

    @ExceptionHandler(AckedPublisher.KafkaUnavailableException.class)
    ResponseEntity<Map<String, String>> unavailable(AckedPublisher.KafkaUnavailableException e) {
        log.error("InfluxDB 2 write refused: {}", e.getMessage(), e);
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header("Retry-After", "5")
                .body(body("unavailable", e.getMessage()));
    }

    private static ResponseEntity<Map<String, String>> error(HttpStatus status, String code, String message) {
        return ResponseEntity.status(status).body(body(code, message));
    }

    private static Map<String, String> body(String code, String message) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("code", code);
        body.put("message", message);
        return body;
    }
}
