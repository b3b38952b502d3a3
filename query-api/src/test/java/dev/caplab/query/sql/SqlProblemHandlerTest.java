package dev.caplab.query.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/** What a client is told when ClickHouse, not the statement, is the problem: retry later, or caplab is broken. */
class SqlProblemHandlerTest {

    private final SqlProblemHandler handler = new SqlProblemHandler();

    @Test
    void aFullReaderQueueIsA503WithRetryAfterNotABadStatement() {
        ResponseEntity<ProblemDetail> answer = handler.failed(new SqlFailedException(202, "Code: 202. DB::Exception:"
                + " too many simultaneous queries. (TOO_MANY_SIMULTANEOUS_QUERIES)"));
        assertThat(answer.getStatusCode().value()).isEqualTo(503);
        assertThat(answer.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("1");
    }

    @Test
    void caplabFailingToLogInIsABadGatewayAndASyntaxErrorIsTheClientsBadRequest() {
        assertThat(handler.failed(new SqlFailedException(516, "Code: 516. AUTHENTICATION_FAILED"))
                .getStatusCode().value()).isEqualTo(502);
        assertThat(handler.failed(new SqlFailedException(-1, "unreachable")).getStatusCode().value()).isEqualTo(502);
        assertThat(handler.failed(new SqlFailedException(62, "Code: 62. SYNTAX_ERROR")).getStatusCode().value())
                .isEqualTo(400);
        assertThat(handler.failed(new SqlFailedException(159, "Code: 159. TIMEOUT_EXCEEDED")).getStatusCode().value())
                .isEqualTo(422);
    }
}
