package dev.caplab.access;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/access}: the scopes the request's own credentials hold, so the web page offers only what its
 * user may do (a run's delete button needs {@code write}). Tells nothing beyond what the caller's token already
 * allows, and needs the {@code read} scope as every page view does.
 */
@RestController
@RequiresScope(Scope.READ)
class ScopesController {

    static final String PATH = "/api/v1/access";

    private final TokenAuthenticator authenticator;

    ScopesController(TokenAuthenticator authenticator) {
        this.authenticator = authenticator;
    }

    @GetMapping(PATH)
    Map<String, List<String>> scopes(HttpServletRequest request) {
        return Map.of("scopes", authenticator.scopesOf(request.getHeader(HttpHeaders.AUTHORIZATION),
                request.getQueryString()).stream().map(Scope::label).toList());
    }
}
