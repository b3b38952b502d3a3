package dev.caplab.ingest.http;

import java.io.IOException;

/** A request body (or its decompressed content) exceeds {@code caplab.ingest.max-body-bytes}; answered with 413. */
public final class BodyTooLargeException extends IOException {

    private final long limitBytes;

    public BodyTooLargeException(String what, long limitBytes) {
        this(limitBytes, what + " exceeds the limit of " + limitBytes + " bytes (caplab.ingest.max-body-bytes); "
                + "send smaller batches");
    }

    private BodyTooLargeException(long limitBytes, String message) {
        super(message);
        this.limitBytes = limitBytes;
    }

    /** A gzip body that expands more than {@code maxExpansion} times the compressed bytes read so far. */
    static BodyTooLargeException expansion(long decompressedBytes, long compressedBytes, int maxExpansion,
            long limitBytes) {
        return new BodyTooLargeException(limitBytes, "decompressed request body exceeds " + maxExpansion
                + " times the " + compressedBytes + " compressed bytes read (" + decompressedBytes + " bytes so far): "
                + "refused as a gzip bomb; send smaller batches");
    }

    public long limitBytes() {
        return limitBytes;
    }
}
