package dev.caplab.query.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/** Lets a request through to the query endpoints only with a token holding the read scope. */
@Component
class ReadScopeInterceptor implements HandlerInterceptor {

    private static final String QUERY_PACKAGE = "dev.caplab.query";
    static final String TOKEN_NAME_ATTRIBUTE = "caplab.query.token";

    private final BearerTokens tokens;

    ReadScopeInterceptor(BearerTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        // ingest's write endpoints share the /api/v1/runs prefix and check their own write tokens
        if (!(handler instanceof HandlerMethod method)
                || !method.getBeanType().getPackageName().startsWith(QUERY_PACKAGE)) {
            return true;
        }
        request.setAttribute(TOKEN_NAME_ATTRIBUTE, tokens.requireRead(request.getHeader(HttpHeaders.AUTHORIZATION)));
        return true;
    }
}
