package dev.caplab.access;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Refuses state-changing browser requests from other sites (why: a page a tester opens must not write into, or query
 * through, a local caplab). A request is refused when its method is not safe and it carries an {@code Origin} that is
 * neither the server's own origin nor allow-listed, or it carries no {@code Origin} but {@code Sec-Fetch-Site:
 * cross-site}. Command-line tools (curl, k6, JMeter, Telegraf, Prometheus) send neither header and pass.
 */
public final class OriginPolicy {

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

    private final Set<String> allowedOrigins;

    public OriginPolicy(List<String> allowedOrigins) {
        this.allowedOrigins = Set.copyOf(allowedOrigins.stream().map(Origins::normalize).toList());
    }

    /**
     * Why the request is refused, or empty when it may proceed.
     *
     * @param serverOrigin {@code scheme://host[:port]} the request was addressed to (its {@code Host} header)
     */
    public Optional<String> refusal(String method, String origin, String secFetchSite, String serverOrigin) {
        if (SAFE_METHODS.contains(method)) {
            return Optional.empty();
        }
        if (origin != null) {
            String normalized;
            try {
                normalized = Origins.normalize(origin);
            } catch (IllegalArgumentException e) {
                return Optional.of(refused("Origin '" + origin + "'"));
            }
            if (allowedOrigins.contains(normalized) || normalized.equals(normalizedOrNull(serverOrigin))) {
                return Optional.empty();
            }
            return Optional.of(refused("Origin " + origin));
        }
        if ("cross-site".equalsIgnoreCase(secFetchSite)) {
            return Optional.of(refused("another site (Sec-Fetch-Site: cross-site, no Origin)"));
        }
        return Optional.empty();
    }

    private static String refused(String what) {
        return "cross-origin request from " + what + " refused: state-changing calls are accepted only from caplab's own page "
                + "or an origin in caplab.access.allowed-origins (--allow-origin); tools that send no Origin are "
                + "not affected";
    }

    private static String normalizedOrNull(String origin) {
        try {
            return origin == null ? null : Origins.normalize(origin);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
