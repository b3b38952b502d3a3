package dev.caplab.query.security;

import dev.caplab.query.web.Problems;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** 401 and 403 as problem details with the {@code WWW-Authenticate} challenge RFC 6750 asks for. */
@RestControllerAdvice(basePackages = "dev.caplab.query")
@Order(Ordered.HIGHEST_PRECEDENCE)
class SecurityProblemHandler {

    @ExceptionHandler(AuthenticationRequiredException.class)
    ResponseEntity<ProblemDetail> unauthenticated(AuthenticationRequiredException e) {
        return ResponseEntity.status(HttpStatus.UNAUTHORIZED)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"caplab\"")
                .body(Problems.of(HttpStatus.UNAUTHORIZED, "unauthenticated", "Authentication required",
                        e.getMessage()));
    }

    @ExceptionHandler(InsufficientScopeException.class)
    ResponseEntity<ProblemDetail> forbidden(InsufficientScopeException e) {
        return ResponseEntity.status(HttpStatus.FORBIDDEN)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"caplab\", error=\"insufficient_scope\", scope=\""
                        + e.scope() + "\"")
                .body(Problems.of(HttpStatus.FORBIDDEN, "insufficient-scope", "Insufficient scope", e.getMessage()));
    }
}
