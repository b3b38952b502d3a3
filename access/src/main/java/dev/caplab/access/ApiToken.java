package dev.caplab.access;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/** A configured token: a name for logs, the secret clients send, and its scopes. The one token type of the port. */
public record ApiToken(String name, String secret, Set<Scope> scopes) {

    /** Shorter secrets are guessable over a network; the same floor applies to every token. */
    public static final int MIN_SECRET_CHARS = 16;

    public ApiToken {
        Objects.requireNonNull(name, "token name");
        if (secret == null || secret.length() < MIN_SECRET_CHARS) {
            throw new IllegalArgumentException("token " + name + ": secret must have at least " + MIN_SECRET_CHARS
                    + " characters");
        }
        scopes = scopes == null || scopes.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(scopes));
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    /** A token made for this process only (256 random bits, URL-safe base64), e.g. for caplab's own clients. */
    public static ApiToken random(String name, Set<Scope> scopes) {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        return new ApiToken(name, Base64.getUrlEncoder().withoutPadding().encodeToString(secret), scopes);
    }

    public boolean allows(Scope scope) {
        return scopes.contains(scope);
    }

    /** Parses the command line's {@code SECRET=read,write}; {@code index} names the token ("cli-1") in logs. */
    public static ApiToken fromOption(String option, int index) {
        String name = "cli-" + index;
        int eq = option.lastIndexOf('=');
        if (eq <= 0 || eq == option.length() - 1) {
            throw new IllegalArgumentException("--token " + name
                    + ": expected SECRET=SCOPES (e.g. 0123456789abcdef=read,write)");
        }
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        try {
            Arrays.stream(option.substring(eq + 1).split(",")).map(Scope::parse).forEach(scopes::add);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--token " + name + ": " + e.getMessage(), e);
        }
        return new ApiToken(name, option.substring(0, eq), scopes);
    }

    /**
     * The secret a client sends, from a bare secret or from the first {@code SECRET=SCOPES} entry of a token list as
     * the server takes it (so one {@code CAPLAB_TOKEN} serves a server and its clients); null for none.
     */
    public static String clientSecret(String tokenOrEntries) {
        if (tokenOrEntries == null || tokenOrEntries.isBlank()) {
            return null;
        }
        String first = tokenOrEntries.strip().split("\\s+")[0];
        int eq = first.lastIndexOf('=');
        if (eq > 0 && eq < first.length() - 1) {
            try {
                Arrays.stream(first.substring(eq + 1).split(",")).forEach(Scope::parse);
                return first.substring(0, eq);
            } catch (IllegalArgumentException notScopes) {
                return first; // '=' inside the secret itself
            }
        }
        return first;
    }

    /** Never shows the secret: tokens end up in logs through the records holding them. */
    @Override
    public String toString() {
        return "ApiToken[name=" + name + ", scopes=" + scopes + "]";
    }
}
