package dev.caplab.ingest.adapter;

import java.util.Set;

/** A format name no adapter is registered for. */
public final class UnknownFormatException extends IllegalArgumentException {

    public UnknownFormatException(String format, Set<String> known) {
        super("unknown format '" + format + "'; known formats: " + String.join(", ", known));
    }
}
