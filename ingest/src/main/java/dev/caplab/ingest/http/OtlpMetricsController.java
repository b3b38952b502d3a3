package dev.caplab.ingest.http;

import dev.caplab.access.BoundedBody;
import dev.caplab.access.BodyTooLargeException;
import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import dev.caplab.ingest.census.CensusLimits;
import dev.caplab.ingest.census.ExpansionBudget;
import dev.caplab.ingest.census.TooManyValuesException;
import dev.caplab.ingest.otlp.DeltaTotals;
import dev.caplab.ingest.otlp.OtlpEncoding;
import dev.caplab.ingest.otlp.OtlpEncoding.GrpcCode;
import dev.caplab.ingest.otlp.OtlpMetricsMapper;
import dev.caplab.ingest.otlp.OtlpRejections;
import dev.caplab.ingest.otlp.OtlpRunIds;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.publish.RoutedSamples;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * OTLP/HTTP metrics receiver ({@code POST /v1/metrics}), so OpenTelemetry SDKs, the Collector's {@code otlphttp}
 * exporter and k6's {@code opentelemetry} output write unchanged. The body (protobuf or JSON, gzip allowed) is
 * mapped whole ({@link OtlpMetricsMapper}), checked at the door, and its valid points published in one Kafka
 * transaction, as {@code /write} does. 200 with an {@code ExportMetricsServiceResponse} in the request's encoding;
 * its {@code partial_success} counts and explains the rejected points (every other point was stored). 400: the body
 * is not OTLP, or no point named a run; 413: too large; 415: not protobuf or JSON; 503 with Retry-After: Kafka did
 * not commit, nothing stored, a retry cannot duplicate. Error bodies are {@code google.rpc.Status} as OTLP requires.
 */
@RestController
@Tag(name = "ingest", description = "Write load-test samples and run lifecycle events")
class OtlpMetricsController {

    static final String PATH = "/v1/metrics";
    static final String ADAPTER = "otlp";

    private static final Logger log = LoggerFactory.getLogger(OtlpMetricsController.class);
    private static final String RETRY_AFTER_SECONDS = "5";

    private final AckedPublisher publisher;
    private final SampleChecks checks;
    private final OtlpMetricsMapper mapper;
    private final DeltaTotals deltaTotals;
    private final Clock clock;
    private final CensusLimits census;

    OtlpMetricsController(AckedPublisher publisher, SampleChecks checks, DeltaTotals deltaTotals) {
        this.publisher = publisher;
        this.checks = checks;
        this.mapper = new OtlpMetricsMapper(checks);
        this.deltaTotals = deltaTotals;
        this.clock = Clock.systemUTC();
        this.census = CensusLimits.of(checks.limits());
    }

    @PostMapping(PATH)
    @RequiresScope(Scope.WRITE)
    @Operation(summary = "OTLP/HTTP metrics export",
            description = "Body: ExportMetricsServiceRequest as application/x-protobuf or application/json, "
                    + "optionally gzip. Source = resource service.name, else host.name, else service.instance.id; "
                    + "run = attribute caplab.run.id or run, else ?run=, else header X-Caplab-Run.")
    @ApiResponse(responseCode = "200", description = "stored; partial_success lists rejected data points")
    @ApiResponse(responseCode = "400", description = "not an OTLP request, or no run id; nothing stored")
    @ApiResponse(responseCode = "401", description = "missing or unknown token")
    @ApiResponse(responseCode = "413", description = "body or sample count too large; nothing stored")
    @ApiResponse(responseCode = "415", description = "Content-Type is neither application/x-protobuf nor "
            + "application/json")
    @ApiResponse(responseCode = "503", description = "Kafka did not commit; nothing stored, retry")
    ResponseEntity<byte[]> export(
            @Parameter(description = "default run id") @RequestParam(name = OtlpRunIds.PARAMETER, required = false)
            String run,
            @RequestHeader(name = OtlpRunIds.HEADER, required = false) String runHeader,
            HttpServletRequest request) throws IOException {
        OtlpEncoding encoding = OtlpEncoding.of(request.getContentType());
        // already gunzipped and bounded by IngestRequestFilter; counted before it is parsed, then before it expands
        ExportMetricsServiceRequest export = encoding.read(request.getInputStream(), census);
        OtlpMetricsMapper.count(export, new ExpansionBudget(checks.limits()));
        String defaultRun = OtlpRunIds.defaultRun(run, runHeader);
        Instant now = clock.instant();
        RoutedSamples.Builder builder = new RoutedSamples.Builder(checks.limits().maxSamplesPerRequest());
        RoutedSamples routed;
        if (OtlpMetricsMapper.hasDelta(export)) {
            try (DeltaTotals.Batch deltas = deltaTotals.begin()) {
                routed = mapAndPublish(export, defaultRun, now, deltas, builder);
                deltas.commit();
            }
        } else {
            routed = mapAndPublish(export, defaultRun, now, null, builder);
        }
        byte[] body = routed.hasErrors()
                ? encoding.response(routed.errors().size(), OtlpRejections.describe(routed.errors()))
                : encoding.response(0, "");
        return ResponseEntity.ok().contentType(MediaType.parseMediaType(encoding.mediaType())).body(body);
    }

    private RoutedSamples mapAndPublish(ExportMetricsServiceRequest export, String defaultRun, Instant now,
            DeltaTotals.Batch deltas, RoutedSamples.Builder builder) {
        OtlpMetricsMapper.Mapped mapped = mapper.map(export, defaultRun, now, deltas, builder);
        RoutedSamples routed = builder.build();
        if (mapped.withoutRun() > 0 && routed.sampleCount() == 0) {
            throw new NoRunException(OtlpRunIds.missing());
        }
        publisher.samples(routed, ADAPTER);
        return routed;
    }

    @ExceptionHandler(OtlpEncoding.UnsupportedContentTypeException.class)
    ResponseEntity<byte[]> unsupportedType(OtlpEncoding.UnsupportedContentTypeException e) {
        return status(OtlpEncoding.JSON, HttpStatus.UNSUPPORTED_MEDIA_TYPE, GrpcCode.INVALID_ARGUMENT, e.getMessage());
    }

    @ExceptionHandler(BoundedBody.UnsupportedEncodingException.class)
    ResponseEntity<byte[]> unsupportedEncoding(BoundedBody.UnsupportedEncodingException e,
            HttpServletRequest request) {
        return status(encodingOf(request), HttpStatus.UNSUPPORTED_MEDIA_TYPE, GrpcCode.INVALID_ARGUMENT,
                e.getMessage());
    }

    @ExceptionHandler({OtlpEncoding.MalformedRequestException.class, BoundedBody.CorruptBodyException.class,
            NoRunException.class, IllegalArgumentException.class})
    ResponseEntity<byte[]> badRequest(Exception e, HttpServletRequest request) {
        return status(encodingOf(request), HttpStatus.BAD_REQUEST, GrpcCode.INVALID_ARGUMENT, e.getMessage());
    }

    @ExceptionHandler(BodyTooLargeException.class)
    ResponseEntity<byte[]> tooLarge(BodyTooLargeException e, HttpServletRequest request) {
        return status(encodingOf(request), HttpStatus.CONTENT_TOO_LARGE, GrpcCode.RESOURCE_EXHAUSTED, e.getMessage());
    }

    @ExceptionHandler(TooManyValuesException.class)
    ResponseEntity<byte[]> tooManyValues(TooManyValuesException e, HttpServletRequest request) {
        return status(encodingOf(request), HttpStatus.CONTENT_TOO_LARGE, GrpcCode.RESOURCE_EXHAUSTED, e.getMessage());
    }

    @ExceptionHandler(RoutedSamples.TooManySamplesException.class)
    ResponseEntity<byte[]> tooManySamples(RoutedSamples.TooManySamplesException e, HttpServletRequest request) {
        return status(encodingOf(request), HttpStatus.CONTENT_TOO_LARGE, GrpcCode.RESOURCE_EXHAUSTED,
                e.getMessage() + "; nothing was stored");
    }

    @ExceptionHandler(AckedPublisher.KafkaUnavailableException.class)
    ResponseEntity<byte[]> unavailable(AckedPublisher.KafkaUnavailableException e, HttpServletRequest request) {
        log.error("OTLP export refused: {}", e.getMessage(), e);
        OtlpEncoding encoding = encodingOf(request);
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header("Retry-After", RETRY_AFTER_SECONDS)
                .contentType(MediaType.parseMediaType(encoding.mediaType()))
                .body(encoding.status(GrpcCode.UNAVAILABLE, e.getMessage()));
    }

    private static OtlpEncoding encodingOf(HttpServletRequest request) {
        try {
            return OtlpEncoding.of(request.getContentType());
        } catch (OtlpEncoding.UnsupportedContentTypeException e) {
            return OtlpEncoding.JSON;
        }
    }

    private static ResponseEntity<byte[]> status(OtlpEncoding encoding, HttpStatus status, int grpcCode,
            String message) {
        return ResponseEntity.status(status).contentType(MediaType.parseMediaType(encoding.mediaType()))
                .body(encoding.status(grpcCode, message));
    }

    /** No data point named a run and the request gave no default: 400 naming where the run may come from. */
    static final class NoRunException extends RuntimeException {
        NoRunException(String message) {
            super(message);
        }
    }
}
