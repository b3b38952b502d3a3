package dev.caplab.app.web;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/** A bearer token given on the command line as {@code SECRET=read,write}. */
public record CliToken(String name, String secret, Set<String> scopes) {

    private static final Set<String> KNOWN_SCOPES = Set.of("read", "write");

    public CliToken {
        if (secret == null || secret.length() < 16) {
            throw new IllegalArgumentException("token " + name + ": secret must have at least 16 characters");
        }
        scopes = Set.copyOf(scopes);
        for (String scope : scopes) {
            if (!KNOWN_SCOPES.contains(scope)) {
                throw new IllegalArgumentException("token " + name + ": unknown scope '" + scope + "' (read, write)");
            }
        }
    }

    /** Parses {@code SECRET=read,write}; {@code index} names the token in logs and errors ("cli-1"). */
    public static CliToken parse(String option, int index) {
        int eq = option.lastIndexOf('=');
        String name = "cli-" + index;
        if (eq <= 0 || eq == option.length() - 1) {
            throw new IllegalArgumentException("--token " + name + ": expected SECRET=SCOPES (e.g. 0123456789abcdef=read,write)");
        }
        Set<String> scopes = new LinkedHashSet<>(Arrays.asList(option.substring(eq + 1).split(",")));
        return new CliToken(name, option.substring(0, eq), scopes);
    }
}
