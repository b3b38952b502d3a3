package dev.caplab.access;

import dev.caplab.access.AccessDeniedException.Refusal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Decides whether a request's credentials grant a scope; the one check for ingest, the query API and the embedded
 * ClickHouse port's readers ({@link #grants}). Accepted forms on the HTTP port,
 * so tools work unchanged: {@code Authorization: Bearer <t>}, {@code Authorization: Token <t>} (InfluxDB 2 clients),
 * HTTP Basic with the token as password (k6 {@code --out influxdb=http://user:<t>@host/db}, JMeter), and InfluxDB
 * 1.x's {@code p} query parameter (read from the raw query string, never from a body).
 */
public final class TokenAuthenticator {

    /**
     * What an authentication scheme may look like to be named in an error: shorter than any secret
     * ({@link ApiToken#MIN_SECRET_CHARS}), so a token sent in the scheme's place is never echoed or logged.
     */
    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9._-]{0,"
            + (ApiToken.MIN_SECRET_CHARS - 2) + "}");

    /** Name reported for requests let through by {@code anonymous-scopes}. */
    public static final String ANONYMOUS = "anonymous";

    private final List<ApiToken> tokens;
    private final List<byte[]> secretDigests;
    private final Set<Scope> anonymousScopes;

    public TokenAuthenticator(List<ApiToken> tokens, Set<Scope> anonymousScopes) {
        this.tokens = List.copyOf(tokens);
        this.secretDigests = this.tokens.stream().map(t -> sha256(t.secret())).toList();
        this.anonymousScopes = Set.copyOf(anonymousScopes);
    }

    /** The name of the token (or {@value #ANONYMOUS}) that grants {@code needed}; otherwise throws saying why. */
    public String authorize(Scope needed, String authorizationHeader, String rawQueryString) {
        if (anonymousScopes.contains(needed)) {
            return ANONYMOUS;
        }
        String presented = presentedSecret(authorizationHeader, rawQueryString).orElseThrow(() ->
                new AccessDeniedException(Refusal.UNAUTHENTICATED, needed, "missing token: send 'Authorization: "
                        + "Bearer <token>' (or Basic with the token as password, or InfluxDB's p parameter)"
                        + (tokens.isEmpty() ? "; no tokens are configured (caplab.access.tokens, --token)" : "")));
        ApiToken match = match(presented).orElseThrow(() ->
                new AccessDeniedException(Refusal.UNAUTHENTICATED, needed, "unknown token"));
        if (!match.allows(needed)) {
            throw new AccessDeniedException(Refusal.INSUFFICIENT_SCOPE, needed,
                    "token '" + match.name() + "' lacks the '" + needed.label() + "' scope");
        }
        return match.name();
    }

    /**
     * Whether {@code presentedSecret} is the secret of a token with scope {@code needed}: the check for ports that
     * carry the token in their own credentials, such as the embedded ClickHouse port's reader password.
     */
    public boolean grants(Scope needed, String presentedSecret) {
        return presentedSecret != null && match(presentedSecret).filter(t -> t.allows(needed)).isPresent();
    }

    /**
     * The scopes a request's credentials hold, by the same check as {@link #authorize} (the anonymous scopes for
     * anyone): what the web page offers its user, e.g. a run's delete button only to a token with {@code write}.
     */
    public Set<Scope> scopesOf(String authorizationHeader, String rawQueryString) {
        Set<Scope> held = java.util.EnumSet.noneOf(Scope.class);
        for (Scope scope : Scope.values()) {
            try {
                authorize(scope, authorizationHeader, rawQueryString);
                held.add(scope);
            } catch (AccessDeniedException | QueryString.MalformedQueryStringException e) {
                // not held: the answer lists only what is
            }
        }
        return held;
    }

    /** Whether requests without any credentials get {@code scope} ({@code anonymous-scopes}). */
    public boolean grantsAnonymously(Scope scope) {
        return anonymousScopes.contains(scope);
    }

    /** The token whose secret was presented; the one comparison of secrets, whatever port or form they came in. */
    private Optional<ApiToken> match(String presented) {
        // digests have one length, and every token is compared, so timing reveals neither which nor how much matched
        byte[] digest = sha256(presented);
        ApiToken match = null;
        for (int i = 0; i < tokens.size(); i++) {
            if (MessageDigest.isEqual(secretDigests.get(i), digest)) {
                match = tokens.get(i);
            }
        }
        return Optional.ofNullable(match);
    }

    private static Optional<String> presentedSecret(String header, String rawQueryString) {
        if (header != null && !header.isBlank()) {
            String h = header.strip();
            int space = h.indexOf(' ');
            String scheme = space < 0 ? h : h.substring(0, space);
            String value = space < 0 ? "" : h.substring(space + 1).strip();
            if (scheme.equalsIgnoreCase("Bearer") || scheme.equalsIgnoreCase("Token")) {
                return Optional.of(value);
            }
            if (scheme.equalsIgnoreCase("Basic")) {
                String decoded;
                try {
                    decoded = new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
                } catch (IllegalArgumentException e) {
                    throw new AccessDeniedException(Refusal.UNAUTHENTICATED, null,
                            "malformed Basic credentials: " + e.getMessage());
                }
                int colon = decoded.indexOf(':');
                return Optional.of(colon < 0 ? decoded : decoded.substring(colon + 1));
            }
            // without a space the whole value is the "scheme", often a bare token: never echo what may be a secret
            throw new AccessDeniedException(Refusal.UNAUTHENTICATED, null, space < 0
                    ? "Authorization header without a scheme: send 'Bearer <token>' (or Token, or Basic)"
                    : "unsupported Authorization scheme" + (SCHEME.matcher(scheme).matches() ? " '" + scheme + "'"
                    : "") + " (Bearer, Token or Basic)");
        }
        return Optional.ofNullable(QueryString.first(rawQueryString, "p")).filter(p -> !p.isEmpty());
    }

    private static byte[] sha256(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }
}
