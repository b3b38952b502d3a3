package dev.caplab.ingest.http;

import java.util.Objects;
import java.util.Set;

/** A configured bearer token: a name for logs, the secret clients send, and its scopes ({@code write} to ingest). */
public record IngestToken(String name, String secret, Set<String> scopes) {

    public static final String WRITE_SCOPE = "write";

    public IngestToken {
        Objects.requireNonNull(name, "token name");
        if (secret == null || secret.length() < 16) {
            throw new IllegalArgumentException("token " + name + ": secret must have at least 16 characters");
        }
        scopes = scopes == null ? Set.of() : Set.copyOf(scopes);
    }

    public boolean canWrite() {
        return scopes.contains(WRITE_SCOPE);
    }
}
