package dev.caplab.app.cli;

import dev.caplab.access.ApiToken;
import dev.caplab.access.Scope;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;

/** {@code --token} and {@code --allow-origin}, shared by {@code caplab up} and {@code caplab serve}. */
public final class AccessOptions {

    @Option(names = "--token", paramLabel = "SECRET=SCOPES",
            description = "Token (16+ characters) and its scopes (read, write), e.g. 0123456789abcdef=read,write; "
                    + "repeatable. Accepted as Bearer, Token, Basic password or InfluxDB's p parameter. Without any, "
                    + "every request to the HTTP port is allowed to read and write: only for a trusted network.")
    List<String> tokens = new ArrayList<>();

    @Option(names = "--allow-origin", paramLabel = "ORIGIN",
            description = "Browser origin (scheme://host[:port]) other than caplab's own page that may make "
                    + "state-changing calls (writes, SQL) and read answers (CORS), e.g. a dashboard; repeatable. "
                    + "Requests without an Origin header (curl, k6, JMeter, Telegraf) are never affected.")
    List<String> allowedOrigins = new ArrayList<>();

    public List<String> tokenOptions() {
        return List.copyOf(tokens);
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

    /** Parses repeated {@code --token SECRET=SCOPES} options. */
    public static List<ApiToken> parseTokens(List<String> options) {
        List<ApiToken> parsed = new ArrayList<>();
        for (int i = 0; i < options.size(); i++) {
            parsed.add(ApiToken.fromOption(options.get(i), i + 1));
        }
        return parsed;
    }
}
