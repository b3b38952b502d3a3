package dev.caplab.access;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Refuses requests addressed to a name that is not this server's while it listens on loopback only (the embedded
 * default): a web page on {@code evil.example} whose DNS name is rebound to 127.0.0.1 looks same-origin to the
 * browser, so neither {@code Origin} nor CORS stops it, but its requests still say {@code Host: evil.example}.
 * Loopback names and addresses ({@code localhost}, {@code *.localhost}, {@code 127.0.0.0/8}, {@code [::1]}) and the
 * hosts of {@code caplab.access.allowed-origins} pass; a request without {@code Host} (HTTP/1.0 tools) passes. A
 * server bound to another address is reached under names it cannot know, and relies on tokens instead.
 */
public final class HostPolicy {

    private final boolean loopbackOnly;
    private final Set<String> allowedHosts;

    private HostPolicy(boolean loopbackOnly, Set<String> allowedHosts) {
        this.loopbackOnly = loopbackOnly;
        this.allowedHosts = allowedHosts;
    }

    /** The policy of a server bound to {@code bindAddress} ({@code server.address}; null or blank: every interface). */
    public static HostPolicy forBindAddress(String bindAddress, List<String> allowedOrigins) {
        Set<String> hosts = allowedOrigins.stream().map(o -> URI.create(Origins.normalize(o)).getHost())
                .filter(h -> h != null).map(h -> h.toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
        return new HostPolicy(bindAddress != null && isLoopback(bindAddress.strip()), hosts);
    }

    /** Why the request is refused, or empty when it may proceed. */
    public Optional<String> refusal(String hostHeader) {
        if (!loopbackOnly || hostHeader == null || hostHeader.isBlank()) {
            return Optional.empty();
        }
        String host = hostName(hostHeader.strip());
        if (isLoopback(host) || allowedHosts.contains(host)) {
            return Optional.empty();
        }
        return Optional.of("Host '" + hostHeader + "' is not a name of this server: caplab listens on loopback only,"
                + " so it answers to localhost, 127.0.0.1 and [::1] (a web page whose DNS name was rebound to"
                + " 127.0.0.1 would otherwise pass as same-origin); add the name's origin with --allow-origin");
    }

    /** The host part of a {@code Host} header, lower case, IPv6 without brackets. */
    static String hostName(String header) {
        String h = header.toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int close = h.indexOf(']');
            return close < 0 ? h : h.substring(1, close);
        }
        int colon = h.indexOf(':');
        return colon < 0 ? h : h.substring(0, colon);
    }

    /**
     * Whether a bind address reaches loopback only: a loopback name or address; null, blank, {@code 0.0.0.0} and
     * {@code ::} (every interface) and any other address do not.
     */
    public static boolean isLoopbackAddress(String bindAddress) {
        return bindAddress != null && !bindAddress.isBlank() && isLoopback(bindAddress.strip());
    }

    static boolean isLoopback(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h.equals("localhost") || h.endsWith(".localhost") || h.equals("::1")
                || h.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    }
}
