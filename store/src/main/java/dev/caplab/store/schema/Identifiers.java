package dev.caplab.store.schema;

import java.util.regex.Pattern;

/** Validates names that must appear in SQL text (databases), since identifiers cannot be bound as parameters. */
public final class Identifiers {

    private static final Pattern SAFE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");

    private Identifiers() {
    }

    /** Returns {@code name} if it is a plain identifier, else throws naming it. */
    public static String requireSafe(String what, String name) {
        if (name == null || !SAFE.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " must match " + SAFE.pattern() + ", was '" + name + "'");
        }
        return name;
    }
}
