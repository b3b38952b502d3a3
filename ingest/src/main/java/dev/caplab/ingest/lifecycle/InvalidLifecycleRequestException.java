package dev.caplab.ingest.lifecycle;

/** A lifecycle request (CLI options or HTTP body) that cannot become an event; the message names the field. */
public final class InvalidLifecycleRequestException extends IllegalArgumentException {

    public InvalidLifecycleRequestException(String message) {
        super(message);
    }
}
