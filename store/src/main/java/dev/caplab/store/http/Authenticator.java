package dev.caplab.store.http;

import dev.caplab.store.http.ClickHouseRequest.Credentials;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Set;

/** Decides who sent a request: caplab itself, a reader, or nobody allowed (401), refusing browsers' cross-site calls. */
final class Authenticator {

    /** Who a request runs as. */
    enum Principal {
        /** caplab's own roles: full access, no limits. */
        INTERNAL,
        /** Anyone else allowed in: one read-only statement at a time within the reader limits. */
        READER
    }

    // Values of Sec-Fetch-Site a browser sends when another page (even on another localhost port) makes the call.
    private static final Set<String> FOREIGN_SITES = Set.of("cross-site", "same-site");

    private final HttpSettings settings;

    Authenticator(HttpSettings settings) {
        this.settings = settings;
    }

    /**
     * The principal for these credentials. A page in a browser can make a {@code text/plain} POST to any port
     * without a preflight, but cannot add an {@code Authorization} or {@code X-ClickHouse-*} header without
     * CORS approval (never given here): a request marked by a browser as coming from a page is refused unless
     * its credentials are in a header.
     */
    Principal authenticate(Credentials credentials, Map<String, String> lowerCaseHeaders) {
        boolean fromPage = lowerCaseHeaders.containsKey("origin")
                || FOREIGN_SITES.contains(lowerCaseHeaders.getOrDefault("sec-fetch-site", ""));
        if (fromPage && !credentials.inHeader()) {
            throw new RequestRefusedException(403, RequestRefusedException.ACCESS_DENIED, "Code: 497. DB::Exception:"
                    + " requests from a web page (Origin or Sec-Fetch-Site header) must carry credentials in the"
                    + " Authorization or X-ClickHouse-User/X-ClickHouse-Key headers. (ACCESS_DENIED)");
        }
        String user = credentials.user().orElse("default");
        if (user.equals(settings.internal().user()) && equal(credentials.password(), settings.internal().password())) {
            return Principal.INTERNAL;
        }
        // an empty password is never a token; the token check itself is the access module's, shared with port 8080
        if (user.equals(HttpSettings.READER_USER) && !credentials.password().isEmpty()
                && settings.readerTokens().grantsRead(credentials.password())) {
            return Principal.READER;
        }
        boolean anonymous = !credentials.presented() || ("default".equals(user) && credentials.password().isEmpty());
        if (anonymous && settings.anonymousReaders()) {
            // A page the browser believes is same-origin (DNS rebinding: evil.example resolved to 127.0.0.1) may send
            // any header, X-ClickHouse-User included; only a secret it cannot know keeps it out. A URL typed by the
            // user (Sec-Fetch-Site: none) is not a page's doing.
            String site = lowerCaseHeaders.get("sec-fetch-site");
            if (lowerCaseHeaders.containsKey("origin") || (site != null && !"none".equals(site))) {
                throw new RequestRefusedException(403, RequestRefusedException.ACCESS_DENIED, "Code: 497."
                        + " DB::Exception: anonymous reads from a web page are refused (a rebound DNS name looks"
                        + " same-origin to the browser); log in as " + HttpSettings.READER_USER + ". (ACCESS_DENIED)");
            }
            return Principal.READER;
        }
        throw new RequestRefusedException(401, RequestRefusedException.AUTHENTICATION_FAILED, "Code: 516."
                + " DB::Exception: " + user + ": Authentication failed: password is incorrect, or there is no user"
                + " with such name. " + (anonymous ? "This caplab requires credentials: user "
                + HttpSettings.READER_USER + " with a read token as password. " : "") + "(AUTHENTICATION_FAILED)");
    }

    private static boolean equal(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
