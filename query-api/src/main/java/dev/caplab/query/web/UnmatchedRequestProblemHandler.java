package dev.caplab.query.web;

import java.util.stream.Collectors;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * A request no controller method takes for its content type fails before a controller is chosen, where
 * {@link ApiProblemHandler} (scoped to caplab's controllers) cannot see it: it too is answered as a problem detail,
 * naming the content types the path does take.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
class UnmatchedRequestProblemHandler {

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<ProblemDetail> unsupportedType(HttpMediaTypeNotSupportedException e) {
        String supported = e.getSupportedMediaTypes().stream().map(Object::toString).distinct()
                .collect(Collectors.joining(", "));
        ProblemDetail p = Problems.of(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type",
                "Unsupported content type", "content type '" + e.getContentType() + "' is not taken here"
                        + (supported.isEmpty() ? "" : "; send one of: " + supported));
        return ResponseEntity.status(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
                .header(HttpHeaders.ACCEPT, supported.isEmpty() ? "*/*" : supported).body(p);
    }
}
