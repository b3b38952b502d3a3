package dev.caplab.query.sql;

import dev.caplab.query.web.Problems;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** Rejected statements are 400; a limit hit is 422 naming the limit; ClickHouse failures keep ClickHouse's code. */
@RestControllerAdvice(assignableTypes = SqlController.class)
class SqlProblemHandler {

    @ExceptionHandler(SqlRejectedException.class)
    ResponseEntity<ProblemDetail> rejected(SqlRejectedException e) {
        return ResponseEntity.badRequest().body(Problems.of(HttpStatus.BAD_REQUEST, "sql-rejected",
                "Statement rejected", e.getMessage()));
    }

    @ExceptionHandler(SqlFailedException.class)
    ResponseEntity<ProblemDetail> failed(SqlFailedException e) {
        HttpStatus status = e.limitExceeded() ? HttpStatus.UNPROCESSABLE_CONTENT
                : e.clickhouseCode() < 0 ? HttpStatus.BAD_GATEWAY : HttpStatus.BAD_REQUEST;
        ProblemDetail p = Problems.of(status, e.limitExceeded() ? "sql-limit" : "sql-failed",
                e.limitExceeded() ? "Limit exceeded" : "Statement failed", e.getMessage());
        p.setProperty("clickhouseCode", e.clickhouseCode());
        return ResponseEntity.status(status).body(p);
    }
}
