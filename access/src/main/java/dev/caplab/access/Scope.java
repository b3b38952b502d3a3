package dev.caplab.access;

import java.util.Locale;

/** What a token may do on the HTTP port: {@code read} results (query API, SQL) or {@code write} data (ingest). */
public enum Scope {
    READ,
    WRITE;

    /** The name used in configuration, on the command line and in error messages ({@code read}, {@code write}). */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code read} or {@code write} (any case); the message names the accepted values. */
    public static Scope parse(String label) {
        for (Scope scope : values()) {
            if (scope.label().equalsIgnoreCase(label.strip())) {
                return scope;
            }
        }
        throw new IllegalArgumentException("unknown scope '" + label + "' (read, write)");
    }
}
