package dev.caplab.demo;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * The caplab the demo is loaded into, as any user reaches it: its HTTP base URL ({@code http://localhost:8080/}) and
 * the token to send, none when the instance grants anonymous access. The token needs the {@code write} scope to
 * ingest and {@code read} to ask which runs the instance already has.
 */
public record IngestTarget(URI baseUrl, Optional<String> token) {

    public IngestTarget {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(token, "token");
        if (!"http".equals(baseUrl.getScheme()) && !"https".equals(baseUrl.getScheme())) {
            throw new IllegalArgumentException("caplab URL must be http or https, was " + baseUrl);
        }
        String s = baseUrl.toString();
        baseUrl = URI.create(s.endsWith("/") ? s : s + "/");
    }

    /** {@code path} (without a leading slash) under the base URL. */
    URI resolve(String path) {
        return baseUrl.resolve(path);
    }

    /** Never shows the token. */
    @Override
    public String toString() {
        return "IngestTarget[" + baseUrl + (token.isPresent() ? ", with token" : ", anonymous") + "]";
    }
}
