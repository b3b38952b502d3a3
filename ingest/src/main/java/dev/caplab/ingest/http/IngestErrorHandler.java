package dev.caplab.ingest.http;

import dev.caplab.access.BoundedBody;
import dev.caplab.access.BodyTooLargeException;
import dev.caplab.ingest.census.TooManyValuesException;
import dev.caplab.ingest.lifecycle.InvalidLifecycleRequestException;
import dev.caplab.ingest.lifecycle.RunDeletedException;
import dev.caplab.ingest.lifecycle.UnknownRunException;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.ingest.remotewrite.InvalidWriteRequestException;
import dev.caplab.ingest.remotewrite.WriteRequestDecoder;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import tools.jackson.core.JacksonException;

/** Maps ingest failures to status codes with an InfluxDB-style {@code {"error": "..."}} body; only for ingest controllers. */
@RestControllerAdvice(assignableTypes = {InfluxWriteController.class, K6Controller.class, EventsController.class,
        RunsController.class, RemoteWriteController.class})
class IngestErrorHandler {

    private static final Logger log = LoggerFactory.getLogger(IngestErrorHandler.class);
    /** The query API's and the access check's problem types share this base. */
    private static final String PROBLEM_TYPE_BASE = "https://caplab.dev/problems/";

    @ExceptionHandler(BodyTooLargeException.class)
    ResponseEntity<Map<String, String>> tooLarge(BodyTooLargeException e) {
        return error(HttpStatus.CONTENT_TOO_LARGE, e.getMessage());
    }

    /** A body holding more values than a request may, counted before decoding: nothing of it was published. */
    @ExceptionHandler(TooManyValuesException.class)
    ResponseEntity<Map<String, String>> tooManyValues(TooManyValuesException e) {
        return error(HttpStatus.CONTENT_TOO_LARGE, e.getMessage());
    }

    @ExceptionHandler(WriteRequestDecoder.UncompressedTooLargeException.class)
    ResponseEntity<Map<String, String>> inflatesTooLarge(WriteRequestDecoder.UncompressedTooLargeException e) {
        return error(HttpStatus.CONTENT_TOO_LARGE, e.getMessage() + "; nothing was stored");
    }

    /** Not snappy, not protobuf: Prometheus does not retry a 4xx, and resending the same bytes could not help. */
    @ExceptionHandler(InvalidWriteRequestException.class)
    ResponseEntity<Map<String, String>> invalidWriteRequest(InvalidWriteRequestException e) {
        return error(HttpStatus.BAD_REQUEST, e.getMessage() + "; nothing was stored");
    }

    @ExceptionHandler(BoundedBody.UnsupportedEncodingException.class)
    ResponseEntity<Map<String, String>> encoding(BoundedBody.UnsupportedEncodingException e) {
        return error(HttpStatus.UNSUPPORTED_MEDIA_TYPE, e.getMessage());
    }

    @ExceptionHandler({BoundedBody.CorruptBodyException.class, IllegalArgumentException.class})
    ResponseEntity<Map<String, String>> badRequest(Exception e) {
        return error(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    /** A request-level limit (the body's sample count): nothing of it was published. */
    @ExceptionHandler(RoutedSamples.TooManySamplesException.class)
    ResponseEntity<Map<String, String>> tooManySamples(RoutedSamples.TooManySamplesException e) {
        return error(HttpStatus.CONTENT_TOO_LARGE, e.getMessage() + "; nothing was stored");
    }

    /** A lifecycle field beyond a limit ({@code /api/v1/runs}): 400 naming the field; nothing was published. */
    @ExceptionHandler(SampleChecks.LimitException.class)
    ResponseEntity<Map<String, String>> limit(SampleChecks.LimitException e) {
        return error(HttpStatus.BAD_REQUEST, (e.field() == null ? "" : e.field() + ": ") + e.reason()
                + "; nothing was published");
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<Map<String, String>> unreadable(HttpMessageNotReadableException e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof BodyTooLargeException tooLarge) {
                return tooLarge(tooLarge);
            }
            if (c instanceof InvalidLifecycleRequestException invalid) {
                return error(HttpStatus.BAD_REQUEST, itemOf(e) + invalid.getMessage());
            }
        }
        return error(HttpStatus.BAD_REQUEST, "unreadable JSON body: " + e.getMostSpecificCause().getMessage());
    }

    /** {@code DELETE /api/v1/runs/{id}} of a run never seen: problem+json, as the query API answers a missing run. */
    @ExceptionHandler(UnknownRunException.class)
    ResponseEntity<ProblemDetail> unknownRun(UnknownRunException e) {
        return problem(HttpStatus.NOT_FOUND, "not-found", "Not found", e.getMessage(), e.runId());
    }

    /**
     * A deleted run named again: deleting it again finds nothing (404, as its detail answers); a lifecycle event for
     * it is refused (409), since nothing more of it is shown.
     */
    @ExceptionHandler(RunDeletedException.class)
    ResponseEntity<ProblemDetail> deletedRun(RunDeletedException e, HttpServletRequest request) {
        boolean delete = HttpMethod.DELETE.matches(request.getMethod());
        ResponseEntity<ProblemDetail> r = problem(delete ? HttpStatus.NOT_FOUND : HttpStatus.CONFLICT, "run-deleted",
                "Run deleted", e.getMessage() + (delete ? "" : "; send a new run under a new run id"), e.runId());
        r.getBody().setProperty("deletedAt", e.deletedAt().toString());
        return r;
    }

    @ExceptionHandler(AckedPublisher.KafkaUnavailableException.class)
    ResponseEntity<Map<String, String>> unavailable(AckedPublisher.KafkaUnavailableException e) {
        log.error("Ingest refused: {}", e.getMessage(), e);
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header("Retry-After", "5")
                .body(Map.of("error", e.getMessage()));
    }

    /** "samples[2]: " from the JSON path Jackson was reading when a value refused itself, so the item is named. */
    private static String itemOf(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof JacksonException json && !json.getPath().isEmpty()) {
                StringBuilder path = new StringBuilder();
                for (JacksonException.Reference ref : json.getPath()) {
                    if (ref.getIndex() >= 0) {
                        path.append('[').append(ref.getIndex()).append(']');
                    } else if (ref.getPropertyName() != null) {
                        path.append(path.isEmpty() ? "" : ".").append(ref.getPropertyName());
                    }
                }
                return path + ": ";
            }
        }
        return "";
    }

    /** RFC 9457, with InfluxDB's {@code error} field too, as the access check's refusals carry it. */
    private static ResponseEntity<ProblemDetail> problem(HttpStatus status, String type, String title, String detail,
            String runId) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, detail);
        body.setType(URI.create(PROBLEM_TYPE_BASE + type));
        body.setTitle(title);
        body.setProperty("error", detail);
        body.setProperty("runId", runId);
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(body);
    }

    private static ResponseEntity<Map<String, String>> error(HttpStatus status, String message) {
        return ResponseEntity.status(status).body(Map.of("error", message));
    }
}
