package dev.caplab.ingest.remotewrite;

/** A remote write body that is not a snappy block holding a {@code prometheus.WriteRequest}: answered with 400. */
public final class InvalidWriteRequestException extends RuntimeException {

    public InvalidWriteRequestException(String message, Throwable cause) {
        super(message, cause);
    }
}
