package dev.caplab.ingest.adapter;

/** An adapter option that is malformed, unknown or out of range. */
public final class BadOptionException extends IllegalArgumentException {

    public BadOptionException(String option, String reason) {
        super("option " + option + ": " + reason);
    }
}
