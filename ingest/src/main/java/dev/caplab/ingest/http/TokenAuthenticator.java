package dev.caplab.ingest.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Checks that a request carries a configured token with write scope. Accepted forms, so tools write unchanged:
 * {@code Authorization: Bearer <t>}, {@code Authorization: Token <t>} (InfluxDB 2 clients), HTTP Basic with the
 * token as password (k6 {@code --out influxdb=http://user:<t>@host/db}, JMeter), and InfluxDB 1.x's {@code p} parameter.
 */
public final class TokenAuthenticator {

    private final List<IngestToken> tokens;
    private final boolean disabled;

    public TokenAuthenticator(List<IngestToken> tokens, boolean disabled) {
        this.tokens = List.copyOf(tokens);
        this.disabled = disabled;
    }

    /** The name of the writing token; throws {@link UnauthorizedException} saying what is wrong. */
    public String authorizeWrite(String authorizationHeader, String passwordParameter) {
        if (disabled) {
            return "anonymous";
        }
        if (tokens.isEmpty()) {
            throw new UnauthorizedException("no ingest tokens are configured (caplab.ingest.tokens); writes are refused");
        }
        String presented = presentedSecret(authorizationHeader, passwordParameter)
                .orElseThrow(() -> new UnauthorizedException("missing bearer token (Authorization: Bearer <token>)"));
        byte[] presentedBytes = presented.getBytes(StandardCharsets.UTF_8);
        IngestToken match = null;
        for (IngestToken token : tokens) {
            // compare every token in constant time so timing does not reveal how much of a secret matched
            if (MessageDigest.isEqual(token.secret().getBytes(StandardCharsets.UTF_8), presentedBytes)) {
                match = token;
            }
        }
        if (match == null) {
            throw new UnauthorizedException("unknown token");
        }
        if (!match.canWrite()) {
            throw new UnauthorizedException("token " + match.name() + " lacks the write scope");
        }
        return match.name();
    }

    private static Optional<String> presentedSecret(String header, String passwordParameter) {
        if (header != null) {
            String h = header.strip();
            int space = h.indexOf(' ');
            String scheme = space < 0 ? h : h.substring(0, space);
            String value = space < 0 ? "" : h.substring(space + 1).strip();
            if (scheme.equalsIgnoreCase("Bearer") || scheme.equalsIgnoreCase("Token")) {
                return Optional.of(value);
            }
            if (scheme.equalsIgnoreCase("Basic")) {
                try {
                    String decoded = new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
                    int colon = decoded.indexOf(':');
                    return Optional.of(colon < 0 ? decoded : decoded.substring(colon + 1));
                } catch (IllegalArgumentException e) {
                    throw new UnauthorizedException("malformed Basic credentials: " + e.getMessage());
                }
            }
            throw new UnauthorizedException("unsupported Authorization scheme '" + scheme + "'");
        }
        return Optional.ofNullable(passwordParameter).filter(p -> !p.isEmpty());
    }
}
