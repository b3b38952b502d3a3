package dev.caplab.query.web;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/** Turns the API's failures into RFC 9457 problem details; scoped to caplab's query controllers only. */
@RestControllerAdvice(basePackages = "dev.caplab.query")
class ApiProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ApiProblemHandler.class);

    @ExceptionHandler(NotFoundException.class)
    ResponseEntity<ProblemDetail> notFound(NotFoundException e) {
        ResponseEntity<ProblemDetail> r = problem(HttpStatus.NOT_FOUND, e.problemType(), e.problemTitle(),
                e.getMessage());
        e.problemProperties().forEach(r.getBody()::setProperty);
        return r;
    }

    @ExceptionHandler(BadRequestParameterException.class)
    ResponseEntity<ProblemDetail> badParameter(BadRequestParameterException e) {
        ResponseEntity<ProblemDetail> r = problem(HttpStatus.BAD_REQUEST, "bad-parameter", "Bad parameter",
                e.getMessage());
        r.getBody().setProperty("parameter", e.parameter());
        return r;
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<ProblemDetail> typeMismatch(MethodArgumentTypeMismatchException e) {
        ResponseEntity<ProblemDetail> r = problem(HttpStatus.BAD_REQUEST, "bad-parameter", "Bad parameter",
                "parameter '" + e.getName() + "' = '" + e.getValue() + "' is not a valid "
                        + (e.getRequiredType() == null ? "value" : e.getRequiredType().getSimpleName()));
        r.getBody().setProperty("parameter", e.getName());
        return r;
    }

    @ExceptionHandler(DataAccessException.class)
    ResponseEntity<ProblemDetail> storeFailure(DataAccessException e) {
        LOG.error("store read failed", e);
        return problem(HttpStatus.SERVICE_UNAVAILABLE, "store-unavailable", "Store unavailable",
                "reading from ClickHouse failed: " + e.getMostSpecificCause().getMessage());
    }

    static ResponseEntity<ProblemDetail> problem(HttpStatus status, String type, String title, String detail) {
        return ResponseEntity.status(status).body(Problems.of(status, type, title, detail));
    }
}
