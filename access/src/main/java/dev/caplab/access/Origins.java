package dev.caplab.access;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** Web origins ({@code scheme://host[:port]}) in one canonical form, so a configured origin and a header compare equal. */
final class Origins {

    private Origins() {
    }

    /** {@code https://Dash.Example/} and {@code https://dash.example:443} both become {@code https://dash.example:443}. */
    static String normalize(String origin) {
        URI uri;
        try {
            uri = new URI(origin.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("origin '" + origin + "' is not scheme://host[:port]: " + e.getMessage(), e);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null
                || uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !uri.getRawPath().equals("/")
                || uri.getRawQuery() != null || uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("origin '" + origin + "' is not http(s)://host[:port]");
        }
        int port = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
        return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + ":" + port;
    }
}
