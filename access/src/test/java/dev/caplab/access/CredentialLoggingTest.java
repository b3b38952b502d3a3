package dev.caplab.access;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.method.HandlerMethod;

/**
 * Credentials sent wrongly are refused without being logged or echoed: every log event of the JVM's logback (the
 * root logger, so any class counts) and the answer's body are searched for the secret.
 */
class CredentialLoggingTest {

    private static final String SECRET = "s3cret-token-0123456789abcdef";

    private final ListAppender<ILoggingEvent> events = new ListAppender<>();
    private final Logger root = ((LoggerContext) LoggerFactory.getILoggerFactory())
            .getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final AccessInterceptor interceptor = new AccessInterceptor(
            new TokenAuthenticator(List.of(new ApiToken("writer", SECRET, Set.of(Scope.WRITE))), Set.of()),
            new OriginPolicy(List.of()), HostPolicy.forBindAddress("127.0.0.1", List.of()));

    @BeforeEach
    void capture() {
        events.start();
        root.addAppender(events);
    }

    @AfterEach
    void release() {
        root.detachAppender(events);
    }

    @ParameterizedTest
    @ValueSource(strings = {SECRET, SECRET + " extra", "Bearer" + SECRET, "s3cret-token-012 x"})
    void anAuthorizationValueWithoutAKnownSchemeIsNeitherLoggedNorEchoed(String header) throws Exception {
        MockHttpServletRequest request = request();
        request.addHeader("Authorization", header);

        String answer = refuse(request);

        assertThat(answer).contains("401").doesNotContain(SECRET.substring(0, 16));
        assertNotLogged(SECRET.substring(0, 16));
    }

    @ParameterizedTest
    @ValueSource(strings = {"p=" + SECRET + "%zz", "db=x&p=" + SECRET + "&q=%zz", "p%zz=" + SECRET,
            "u=writer&p=%E0%A4%A" + SECRET})
    void aMalformedQueryStringIsNeitherLoggedNorEchoed(String query) throws Exception {
        MockHttpServletRequest request = request();
        request.setQueryString(query);

        String answer = refuse(request);

        assertThat(answer).contains("malformed percent-encoding").doesNotContain(SECRET);
        assertNotLogged(SECRET);
    }

    private static MockHttpServletRequest request() {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/write");
        request.addHeader("Host", "127.0.0.1:8080");
        return request;
    }

    /** Runs the interceptor, which must refuse; returns the status and body of its answer. */
    private String refuse(MockHttpServletRequest request) throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        boolean passed = interceptor.preHandle(request, response,
                new HandlerMethod(new Endpoint(), Endpoint.class.getDeclaredMethod("write")));
        assertThat(passed).isFalse();
        assertThat(events.list).as("the refusal is logged").isNotEmpty();
        return response.getStatus() + " " + response.getContentAsString();
    }

    private void assertNotLogged(String secret) {
        for (ILoggingEvent event : events.list) {
            assertThat(event.getFormattedMessage()).doesNotContain(secret);
            if (event.getThrowableProxy() != null) {
                assertThat(event.getThrowableProxy().getMessage()).doesNotContain(secret);
            }
        }
    }

    static final class Endpoint {
        @RequiresScope(Scope.WRITE)
        void write() {
        }
    }
}
