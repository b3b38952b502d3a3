package dev.caplab.app.cli;

import dev.caplab.access.ApiToken;
import dev.caplab.access.HostPolicy;
import dev.caplab.access.Scope;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * Tokens and {@code --allow-origin}, shared by {@code caplab up} and {@code caplab serve}. Tokens come from a file
 * ({@code --token-file}), the environment ({@value #TOKEN_ENV}) or {@code --token}; the first two keep secrets out of
 * the process list, which every local user can read. Listening beyond loopback without any token is refused.
 */
public final class AccessOptions {

    /** Environment variable holding {@code SECRET=SCOPES} tokens, separated by white space. */
    public static final String TOKEN_ENV = "CAPLAB_TOKEN";

    @Option(names = "--token", paramLabel = "SECRET=SCOPES",
            description = "Token (16+ characters) and its scopes (read, write), e.g. 0123456789abcdef=read,write; "
                    + "repeatable. Visible to every local user in the process list: prefer --token-file or env "
                    + TOKEN_ENV + ". Accepted as Bearer, Token, Basic password or InfluxDB's p parameter. Without "
                    + "any token, every request may read and write, so caplab then listens on loopback only.")
    List<String> tokens = new ArrayList<>();

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "File of tokens, one SECRET=SCOPES per line (# comments and blank lines ignored).")
    Path tokenFile;

    @Option(names = "--allow-origin", paramLabel = "ORIGIN",
            description = "Browser origin (scheme://host[:port]) other than caplab's own page that may make "
                    + "state-changing calls (writes, SQL) and read answers (CORS), e.g. a dashboard; repeatable. "
                    + "Requests without an Origin header (curl, k6, JMeter, Telegraf) are never affected.")
    List<String> allowedOrigins = new ArrayList<>();

    /** Every token given, as {@code SECRET=SCOPES}: the file's, then the environment's, then the command line's. */
    public List<String> tokenOptions() {
        return tokenOptions(System.getenv());
    }

    List<String> tokenOptions(Map<String, String> env) {
        List<String> all = new ArrayList<>();
        if (tokenFile != null) {
            all.addAll(entries(read(tokenFile), "--token-file " + tokenFile));
        }
        String fromEnv = env.get(TOKEN_ENV);
        if (fromEnv != null) {
            all.addAll(entries(fromEnv, "env " + TOKEN_ENV));
        }
        all.addAll(tokens);
        return List.copyOf(all);
    }

    public List<String> allowedOrigins() {
        return List.copyOf(allowedOrigins);
    }

    /**
     * What requests without a token may do: everything when no token is configured (a trusted network), nothing
     * otherwise. The one rule for every port of {@code caplab up} and {@code caplab serve}.
     */
    public static Set<Scope> anonymousScopes(List<ApiToken> userTokens) {
        return userTokens.isEmpty() ? EnumSet.allOf(Scope.class) : Set.of();
    }

    /**
     * Refuses to listen on {@code bindAddress} beyond loopback without a token, as a database refuses remote logins
     * without a password: without tokens every request may read and write.
     */
    public static void requireTokensBeyondLoopback(String bindAddress, List<?> tokens) {
        if (tokens.isEmpty() && !HostPolicy.isLoopbackAddress(bindAddress)) {
            throw new IllegalArgumentException("refusing to listen on " + bindAddress + " without a token: anyone "
                    + "who reaches it could read and write everything. Give a token (--token-file FILE, env "
                    + TOKEN_ENV + "=SECRET=read,write, or --token), or bind loopback (--host 127.0.0.1)");
        }
    }

    /** Parses {@code SECRET=SCOPES} entries. */
    public static List<ApiToken> parseTokens(List<String> options) {
        List<ApiToken> parsed = new ArrayList<>();
        for (int i = 0; i < options.size(); i++) {
            parsed.add(ApiToken.fromOption(options.get(i), i + 1));
        }
        return parsed;
    }

    /** The entries of a token file or variable: white-space separated, {@code #} to the end of a line ignored. */
    static List<String> entries(String text, String where) {
        List<String> out = new ArrayList<>();
        for (String line : text.split("\\R")) {
            int hash = line.indexOf('#');
            String content = (hash < 0 ? line : line.substring(0, hash)).strip();
            if (!content.isEmpty()) {
                out.addAll(List.of(content.split("\\s+")));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(where + " holds no token (SECRET=SCOPES)");
        }
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i).indexOf('=') <= 0) {
                // a client's bare secret; the entry itself is not shown, it is a secret
                throw new IllegalArgumentException(where + ", entry " + (i + 1) + ": expected SECRET=SCOPES (e.g. "
                        + "0123456789abcdef=read,write); a server needs each token's scopes");
            }
        }
        return out;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read --token-file " + file + ": " + e.getMessage(), e);
        }
    }
}
