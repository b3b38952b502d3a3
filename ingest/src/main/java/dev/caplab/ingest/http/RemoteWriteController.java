package dev.caplab.ingest.http;

import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import dev.caplab.ingest.census.CensusLimits;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.remotewrite.MetricFamilies;
import dev.caplab.ingest.remotewrite.RemoteWriteResult;
import dev.caplab.ingest.remotewrite.SeriesMapper;
import dev.caplab.ingest.remotewrite.SeriesMapper.DefaultRun;
import dev.caplab.ingest.remotewrite.WriteRequestDecoder;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Prometheus remote write 1.0 receiver ({@code POST /api/v1/write}), for Prometheus, Grafana Alloy, the OpenTelemetry
 * Collector's {@code prometheusremotewrite} exporter and k6's {@code experimental-prometheus-rw} output. Body: a
 * snappy block holding a protobuf {@code prometheus.WriteRequest}; mapping in {@link SeriesMapper}. The whole
 * request is decoded and checked first, then its valid series are published in one Kafka transaction. 204: every
 * series stored. 400: the listed series were rejected (series, field, reason), every other series was stored
 * (senders never retry a 4xx). 413 and 503 (Kafka did not commit, the one case a retry helps): nothing stored.
 */
@RestController
@Tag(name = "ingest", description = "Write load-test samples and run lifecycle events")
class RemoteWriteController {

    static final String WRITE_PATH = "/api/v1/write";
    static final String ADAPTER = "prometheus-remote-write";
    static final String SNAPPY = "snappy";
    static final String RUN_HEADER = "X-Caplab-Run";
    static final String RUN_PARAMETER = "run";
    static final String SAMPLES_HEADER = "X-Caplab-Samples";
    static final String STALE_HEADER = "X-Caplab-Stale-Markers";
    /** Remote write 2.0 announces itself in the Content-Type; answering 415 makes a 2.0 sender fall back to 1.0. */
    static final String V2_CONTENT_TYPE = "proto=io.prometheus.write.v2";

    private static final Logger log = LoggerFactory.getLogger(RemoteWriteController.class);

    private final AckedPublisher publisher;
    private final SeriesMapper mapper;
    private final WriteRequestDecoder decoder;
    private final long maxBodyBytes;
    private final Clock clock = Clock.systemUTC();

    RemoteWriteController(AckedPublisher publisher, SampleChecks checks, IngestProperties properties) {
        this.publisher = publisher;
        this.mapper = new SeriesMapper(checks, new MetricFamilies());
        this.maxBodyBytes = properties.maxBodyBytes();
        this.decoder = new WriteRequestDecoder(CensusLimits.of(checks.limits()));
    }

    @PostMapping(WRITE_PATH)
    @RequiresScope(Scope.WRITE)
    @Operation(summary = "Prometheus remote write 1.0",
            description = "Body: snappy block (Content-Encoding: snappy) of a protobuf prometheus.WriteRequest. Run: "
                    + "the series' run label, else ?run=, else the X-Caplab-Run header. Source: the source label, "
                    + "else instance, else job. Names and labels verbatim; counters, gauges, classic and native "
                    + "histograms (as _count, _sum, _bucket{le}) and summaries; stale markers are skipped.")
    @ApiResponse(responseCode = "204", description = "every series stored and acknowledged by Kafka")
    @ApiResponse(responseCode = "400", description = "not snappy/protobuf (nothing stored), or the listed series "
            + "were rejected (series, field, reason) and every other series was stored")
    @ApiResponse(responseCode = "401", description = "missing or unknown token")
    @ApiResponse(responseCode = "403", description = "token without the write scope")
    @ApiResponse(responseCode = "413", description = "body over caplab.ingest.max-body-bytes (on the wire or "
            + "inflated) or too many samples; nothing stored")
    @ApiResponse(responseCode = "415", description = "not snappy-encoded, or remote write 2.0; nothing stored")
    @ApiResponse(responseCode = "503", description = "Kafka did not commit; nothing stored, retry")
    ResponseEntity<Map<String, String>> write(
            @Parameter(description = "run id of series without a run label") @RequestParam(name = RUN_PARAMETER,
                    required = false) String run,
            @Parameter(description = "run id when there is neither a run label nor ?run=")
            @RequestHeader(name = RUN_HEADER, required = false) String runHeader,
            HttpServletRequest request) throws IOException {
        String encoding = request.getHeader(HttpHeaders.CONTENT_ENCODING);
        if (encoding == null || !encoding.strip().equalsIgnoreCase(SNAPPY)) {
            return error(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "remote write bodies are snappy block-compressed: "
                    + "send Content-Encoding: snappy (got " + (encoding == null ? "none" : "'" + encoding + "'") + ")");
        }
        String contentType = request.getContentType();
        if (contentType != null && contentType.toLowerCase(Locale.ROOT).replace(" ", "").contains(V2_CONTENT_TYPE)) {
            return error(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "caplab receives remote write 1.0 (prometheus.WriteRequest"
                    + "); set protobuf_message: prometheus.WriteRequest");
        }
        // bounded on the wire by IngestRequestFilter, which passes the snappy block through untouched
        byte[] body = request.getInputStream().readAllBytes();
        DefaultRun defaultRun = run != null ? new DefaultRun(run, RUN_PARAMETER)
                : runHeader != null ? new DefaultRun(runHeader, RUN_HEADER) : new DefaultRun(null, RUN_PARAMETER);
        RemoteWriteResult result = mapper.map(decoder.decode(body, maxBodyBytes), defaultRun, clock.instant());
        publisher.samples(result.routed(), ADAPTER); // nothing to publish reaches no Kafka, but is answered
        if (result.staleMarkers() > 0 || result.nanValues() > 0) {
            log.debug("Remote write: {} series, {} samples stored, {} stale markers and {} NaN values skipped",
                    result.seriesCount(), result.routed().sampleCount(), result.staleMarkers(), result.nanValues());
        }
        if (!result.routed().hasErrors()) {
            return ResponseEntity.noContent()
                    .header(SAMPLES_HEADER, Integer.toString(result.routed().sampleCount()))
                    .header(STALE_HEADER, Integer.toString(result.staleMarkers())).build();
        }
        log.info("Remote write {}", result.describeRejections());
        return ResponseEntity.status(HttpStatus.BAD_REQUEST)
                .header(SAMPLES_HEADER, Integer.toString(result.routed().sampleCount()))
                .header(STALE_HEADER, Integer.toString(result.staleMarkers()))
                .body(Map.of("error", result.describeRejections()));
    }

    private static ResponseEntity<Map<String, String>> error(HttpStatus status, String message) {
        return ResponseEntity.status(status).body(Map.of("error", message));
    }
}
