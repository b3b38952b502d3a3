package dev.caplab.access;

import java.io.IOException;

/**
 * A request body, on the wire or decoded, exceeds its limit, or expands more than {@link BoundedBody#MAX_EXPANSION}
 * times ({@link BoundedBody}): ingest answers 413, the ClickHouse interface 413 in its own format.
 */
public final class BodyTooLargeException extends IOException {

    private final long limitBytes;
    private final boolean decoded;

    /**
     * {@code what} (e.g. "request body") exceeds {@code limitBytes}, the limit {@code limitName} names; {@code decoded}
     * when it was the decoded side.
     */
    public BodyTooLargeException(String what, long limitBytes, String limitName, boolean decoded) {
        this(limitBytes, decoded, what + " exceeds the limit of " + limitBytes + " bytes (" + limitName + "); "
                + "send smaller batches");
    }

    private BodyTooLargeException(long limitBytes, boolean decoded, String message) {
        super(message);
        this.limitBytes = limitBytes;
        this.decoded = decoded;
    }

    /** A compressed body that expands more than {@code maxExpansion} times the compressed bytes read so far. */
    static BodyTooLargeException expansion(long decompressedBytes, long compressedBytes, int maxExpansion,
            long limitBytes) {
        return new BodyTooLargeException(limitBytes, true, "decompressed request body exceeds " + maxExpansion
                + " times the " + compressedBytes + " compressed bytes read (" + decompressedBytes + " bytes so far): "
                + "refused as a compression bomb; send smaller batches");
    }

    public long limitBytes() {
        return limitBytes;
    }

    /** True when the decoded side (or its expansion) was past the bound, false when the bytes sent were. */
    public boolean decoded() {
        return decoded;
    }
}
