package dev.caplab.query.security;

import dev.caplab.query.QueryApiProperties;
import dev.caplab.query.QueryApiProperties.ApiToken;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import org.springframework.stereotype.Component;

/** Checks an {@code Authorization} header against the configured tokens and the scope an endpoint needs. */
@Component
public class BearerTokens {

    private final List<ApiToken> tokens;
    private final boolean anonymousRead;

    public BearerTokens(QueryApiProperties properties) {
        this.tokens = properties.tokens();
        this.anonymousRead = properties.anonymousRead();
    }

    /** Returns the name of the token allowed to read; throws saying exactly what is missing. */
    public String requireRead(String authorizationHeader) {
        if (anonymousRead && (authorizationHeader == null || authorizationHeader.isBlank())) {
            return "anonymous";
        }
        if (authorizationHeader == null || authorizationHeader.isBlank()) {
            throw new AuthenticationRequiredException("missing bearer token: send 'Authorization: Bearer <token>'"
                    + (tokens.isEmpty() ? " (no tokens are configured under caplab.query.tokens)" : ""));
        }
        String header = authorizationHeader.strip();
        if (!header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw new AuthenticationRequiredException("unsupported authorization scheme: send 'Authorization:"
                    + " Bearer <token>'");
        }
        byte[] presented = header.substring(7).strip().getBytes(StandardCharsets.UTF_8);
        ApiToken match = null;
        for (ApiToken token : tokens) {
            // every token is compared in constant time so timing does not reveal how much of a secret matched
            if (MessageDigest.isEqual(token.secret().getBytes(StandardCharsets.UTF_8), presented)) {
                match = token;
            }
        }
        if (match == null) {
            throw new AuthenticationRequiredException("unknown bearer token");
        }
        if (!match.canRead()) {
            throw new InsufficientScopeException(match.name(), ApiToken.READ_SCOPE);
        }
        return match.name();
    }
}
