package dev.caplab.ingest.http;

import java.io.IOException;

/** A request body (or its decompressed content) exceeds {@code caplab.ingest.max-body-bytes}; answered with 413. */
public final class BodyTooLargeException extends IOException {

    private final long limitBytes;

    public BodyTooLargeException(String what, long limitBytes) {
        super(what + " exceeds the limit of " + limitBytes + " bytes (caplab.ingest.max-body-bytes); "
                + "send smaller batches");
        this.limitBytes = limitBytes;
    }

    public long limitBytes() {
        return limitBytes;
    }
}
