package dev.caplab.access;

import dev.caplab.access.AccessDeniedException.Refusal;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.web.cors.CorsUtils;
import org.springframework.web.servlet.HandlerInterceptor;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one access check of the HTTP port, run after Spring routed the request, on the handler it routed to: whatever
 * spelling of the path reached a method ({@code ;params}, percent-encoding), the method's declared scope applies.
 * Order: a foreign {@code Host} on a loopback-only server (DNS rebinding), cross-origin refusal for state-changing
 * calls, then the scope. Refusals are answered here as RFC 9457
 * problems that also carry InfluxDB's {@code error} field, which k6, Telegraf and JMeter log.
 */
public final class AccessInterceptor implements HandlerInterceptor {

    /** Request attribute holding the name of the token that was let through. */
    public static final String TOKEN_NAME_ATTRIBUTE = "caplab.access.token";
    private static final String PROBLEM_TYPE_BASE = "https://caplab.dev/problems/";
    private static final Logger log = LoggerFactory.getLogger(AccessInterceptor.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final TokenAuthenticator authenticator;
    private final OriginPolicy origins;
    private final HostPolicy hosts;

    public AccessInterceptor(TokenAuthenticator authenticator, OriginPolicy origins, HostPolicy hosts) {
        this.authenticator = authenticator;
        this.origins = origins;
        this.hosts = hosts;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
            throws IOException {
        try {
            request.setAttribute(TOKEN_NAME_ATTRIBUTE, check(request, handler));
            return true;
        } catch (AccessDeniedException e) {
            log.warn("Refused {} {} from {}: {}", request.getMethod(), request.getRequestURI(),
                    request.getRemoteAddr(), e.getMessage());
            write(response, e);
            return false;
        }
    }

    private String check(HttpServletRequest request, Object handler) {
        Optional<String> foreignHost = hosts.refusal(request.getHeader(HttpHeaders.HOST));
        if (foreignHost.isPresent()) {
            throw new AccessDeniedException(Refusal.CROSS_ORIGIN, null, foreignHost.get());
        }
        if (CorsUtils.isPreFlightRequest(request)) {
            return "cors-preflight"; // no body, no effect; Spring's CORS processor answers it from the allow-list
        }
        Optional<String> crossOrigin = origins.refusal(request.getMethod(), request.getHeader(HttpHeaders.ORIGIN),
                request.getHeader("Sec-Fetch-Site"), request.getScheme() + "://" + request.getHeader(HttpHeaders.HOST));
        if (crossOrigin.isPresent()) {
            throw new AccessDeniedException(Refusal.CROSS_ORIGIN, null, crossOrigin.get());
        }
        EndpointAccess access = EndpointAccess.of(handler).orElseThrow(() -> {
            log.error("Handler {} declares no scope (@RequiresScope or @PublicEndpoint); refusing it", handler);
            return new AccessDeniedException(Refusal.UNDECLARED_SCOPE, null,
                    "this endpoint declares no scope, so it is refused (fail closed)");
        });
        if (access.isPublic()) {
            return TokenAuthenticator.ANONYMOUS;
        }
        try {
            return authenticator.authorize(access.scope(), request.getHeader(HttpHeaders.AUTHORIZATION),
                    request.getQueryString());
        } catch (QueryString.MalformedQueryStringException e) {
            throw new AccessDeniedException(Refusal.MALFORMED, access.scope(), e.getMessage());
        }
    }

    private static void write(HttpServletResponse response, AccessDeniedException e) throws IOException {
        Refusal refusal = e.refusal();
        if (refusal == Refusal.UNAUTHENTICATED) {
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"caplab\"");
        } else if (refusal == Refusal.INSUFFICIENT_SCOPE) {
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"caplab\", error=\"insufficient_scope\", "
                    + "scope=\"" + e.scope().label() + "\"");
        }
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", PROBLEM_TYPE_BASE + refusal.type());
        problem.put("title", refusal.title());
        problem.put("status", refusal.status());
        problem.put("detail", e.getMessage());
        problem.put("error", e.getMessage());
        response.setStatus(refusal.status());
        response.setContentType("application/problem+json");
        response.getOutputStream().write(JSON.writeValueAsBytes(problem));
    }
}
