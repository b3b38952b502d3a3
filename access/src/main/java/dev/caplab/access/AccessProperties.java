package dev.caplab.access;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Who may call the HTTP port ({@code caplab.access.*}): the tokens and their scopes, the scopes granted to requests
 * without credentials ({@code anonymous-scopes}; empty by default, so nothing is open by accident), and the browser
 * origins other than the page's own that may make state-changing calls ({@code allowed-origins}, for dashboards).
 */
@ConfigurationProperties("caplab.access")
public record AccessProperties(List<ApiToken> tokens, Set<Scope> anonymousScopes, List<String> allowedOrigins) {

    public AccessProperties {
        tokens = tokens == null ? List.of() : List.copyOf(tokens);
        anonymousScopes = anonymousScopes == null || anonymousScopes.isEmpty() ? Set.of()
                : Set.copyOf(EnumSet.copyOf(anonymousScopes));
        allowedOrigins = allowedOrigins == null ? List.of() : allowedOrigins.stream().map(Origins::normalize).toList();
    }
}
