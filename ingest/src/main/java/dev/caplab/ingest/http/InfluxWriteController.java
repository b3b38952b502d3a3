package dev.caplab.ingest.http;

import dev.caplab.access.PublicEndpoint;
import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import dev.caplab.ingest.influx.LineProtocolParser;
import dev.caplab.ingest.influx.TimestampPrecision;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.publish.RoutedSamples;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * InfluxDB 1.x compatible {@code /write}, so k6 ({@code --out influxdb=http://host:8080/<run>}), JMeter's InfluxDB
 * backend listener and Telegraf write unchanged. {@code db} is the default run id (a {@code run}/{@code run_id} tag
 * overrides it per line). The whole body is parsed and checked first ({@link SampleChecks}); then its valid lines are
 * published in one Kafka transaction. 204: every line stored. 400 "partial write": the lines it lists were rejected
 * (line, field, reason) and every other line was stored. 413 (body or sample count too large) and 503 (Kafka did not
 * commit): nothing was stored, a retry cannot duplicate.
 */
@RestController
@Tag(name = "ingest", description = "Write load-test samples and run lifecycle events")
class InfluxWriteController {

    static final String WRITE_PATH = "/write";
    static final String ADAPTER = "influx-line";

    private final AckedPublisher publisher;
    private final SampleChecks checks;
    private final Clock clock;
    private final ThreadLocal<LineProtocolParser> parsers;

    InfluxWriteController(AckedPublisher publisher, SampleChecks checks) {
        this.publisher = publisher;
        this.checks = checks;
        this.clock = Clock.systemUTC();
        this.parsers = ThreadLocal.withInitial(() -> new LineProtocolParser(checks));
    }

    @PostMapping(WRITE_PATH)
    @RequiresScope(Scope.WRITE)
    @Operation(summary = "InfluxDB 1.x line protocol write",
            description = "Body: line protocol, optionally gzip (Content-Encoding: gzip). Metric = measurement "
                    + "(field 'value') or measurement.field; tags = labels; run/run_id tag or db = run; "
                    + "source or host tag = source.")
    @ApiResponse(responseCode = "204", description = "every line accepted and acknowledged by Kafka")
    @ApiResponse(responseCode = "400", description = "partial write: the listed lines were rejected (line, field, "
            + "reason), every other line was stored")
    @ApiResponse(responseCode = "401", description = "missing or unknown token")
    @ApiResponse(responseCode = "403", description = "token without the write scope, or a cross-origin browser request")
    @ApiResponse(responseCode = "413", description = "body over caplab.ingest.max-body-bytes or too many samples; "
            + "nothing stored")
    @ApiResponse(responseCode = "503", description = "Kafka did not commit; nothing stored, retry")
    ResponseEntity<Map<String, String>> write(
            @Parameter(description = "default run id") @RequestParam(required = false) String db,
            @Parameter(description = "n, u, ms, s, m or h (default n)") @RequestParam(required = false) String precision,
            HttpServletRequest request) throws IOException {
        TimestampPrecision unit = TimestampPrecision.fromParameter(precision);
        // already gunzipped and bounded by IngestRequestFilter; db and precision come from the query string only
        byte[] body = request.getInputStream().readAllBytes();
        RoutedSamples.Builder parsed = new RoutedSamples.Builder(checks.limits().maxSamplesPerRequest());
        parsers.get().parseInto(body, 0, body.length, unit, db, clock.instant(), parsed);
        RoutedSamples routed = parsed.build();
        // annotations (JMeter's test start and end) and samples in one transaction
        publisher.publish(List.<SpecificRecord>copyOf(routed.annotations()), routed, ADAPTER);
        if (!routed.hasErrors()) {
            return ResponseEntity.noContent().build();
        }
        return ResponseEntity.status(HttpStatus.BAD_REQUEST).body(Map.of("error", PartialWrite.describe(routed)));
    }

    @RequestMapping(value = "/ping", method = {RequestMethod.GET, RequestMethod.HEAD})
    @Operation(summary = "InfluxDB 1.x ping: 204 when up")
    @PublicEndpoint("liveness probe of InfluxDB clients: carries no data")
    ResponseEntity<Void> ping() {
        return ResponseEntity.noContent().header("X-Influxdb-Version", "1.8-caplab").build();
    }

    /** Telegraf and k6 send CREATE DATABASE before writing; runs need no creation, so it simply succeeds. */
    @PostMapping("/query")
    @RequiresScope(Scope.WRITE)
    @Operation(summary = "InfluxDB 1.x query: only CREATE DATABASE is accepted, as a no-op")
    ResponseEntity<Map<String, Object>> query(@RequestParam(required = false) String q) {
        if (q != null && q.strip().toUpperCase(java.util.Locale.ROOT).startsWith("CREATE DATABASE")) {
            return ResponseEntity.ok(Map.of("results", java.util.List.of(Map.of("statement_id", 0))));
        }
        return ResponseEntity.badRequest().body(Map.of("error",
                "caplab accepts writes only; query results through /api/v1 (got: " + q + ")"));
    }
}
