package dev.caplab.query.sql;

import dev.caplab.query.web.Problems;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Rejected statements are 400; a limit hit is 422 naming the limit; ClickHouse failures keep ClickHouse's code (502
 * when caplab cannot reach or log in to it); all slots taken, here or in ClickHouse, is 503 with {@code Retry-After}: the limit is the server's capacity, shared by all clients, not a rate
 * one client exceeded (which 429 would say).
 */
@RestControllerAdvice(assignableTypes = SqlController.class)
class SqlProblemHandler {

    static final String RETRY_AFTER_SECONDS = "1";

    @ExceptionHandler(SqlRejectedException.class)
    ResponseEntity<ProblemDetail> rejected(SqlRejectedException e) {
        return ResponseEntity.badRequest().body(Problems.of(HttpStatus.BAD_REQUEST, "sql-rejected",
                "Statement rejected", e.getMessage()));
    }

    @ExceptionHandler(SqlBusyException.class)
    ResponseEntity<ProblemDetail> busy(SqlBusyException e) {
        ProblemDetail p = Problems.of(HttpStatus.SERVICE_UNAVAILABLE, "sql-busy", "Too many statements running",
                e.getMessage());
        p.setProperty("maxConcurrentQueries", e.limit());
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS)
                .body(p);
    }

    @ExceptionHandler(SqlFailedException.class)
    ResponseEntity<ProblemDetail> failed(SqlFailedException e) {
        if (e.busy()) {
            ProblemDetail p = Problems.of(HttpStatus.SERVICE_UNAVAILABLE, "sql-busy", "ClickHouse is busy",
                    e.getMessage());
            p.setProperty("clickhouseCode", e.clickhouseCode());
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                    .header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS).body(p);
        }
        HttpStatus status = e.limitExceeded() ? HttpStatus.UNPROCESSABLE_CONTENT
                : e.gatewayFailure() ? HttpStatus.BAD_GATEWAY : HttpStatus.BAD_REQUEST;
        ProblemDetail p = Problems.of(status, e.limitExceeded() ? "sql-limit" : "sql-failed",
                e.limitExceeded() ? "Limit exceeded" : "Statement failed", e.getMessage());
        p.setProperty("clickhouseCode", e.clickhouseCode());
        return ResponseEntity.status(status).body(p);
    }
}
