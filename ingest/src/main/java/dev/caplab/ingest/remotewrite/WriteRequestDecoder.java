package dev.caplab.ingest.remotewrite;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.caplab.ingest.census.CensusLimits;
import dev.caplab.ingest.census.ProtobufCensus;
import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.ingest.remotewrite.prompb.Remote.WriteRequest;
import io.airlift.compress.v3.MalformedInputException;
import io.airlift.compress.v3.snappy.SnappyDecompressor;
import io.airlift.compress.v3.snappy.SnappyJavaDecompressor;

/**
 * A remote write 1.0 body to its {@code prometheus.WriteRequest}: snappy block format (not the framed stream format),
 * then protobuf. Nothing is allocated for what a body only claims: the block's declared length is checked against
 * what its compressed bytes can hold at most ({@link #MAX_SNAPPY_RATIO}) and against the limit before the output is
 * allocated, and the protobuf's repeated fields are counted on the wire ({@link ProtobufCensus}) before it is parsed.
 */
public final class WriteRequestDecoder {

    /**
     * Bytes one compressed byte of a snappy block may become, rounded up: the densest element is a copy with a 2-byte
     * offset, 3 bytes emitting at most 64 (snappy's format_description.txt, "Copy with 2-byte offset").
     */
    static final int MAX_SNAPPY_RATIO = 22;

    // the pure-Java decoder, named explicitly: SnappyDecompressor.create() may pick the native library instead
    private final SnappyDecompressor snappy = new SnappyJavaDecompressor();
    private final ProtobufCensus census;

    public WriteRequestDecoder(CensusLimits limits) {
        this.census = new ProtobufCensus(limits);
    }

    /** A decoder with the default limits ({@link IngestLimits#DEFAULTS}). */
    public WriteRequestDecoder() {
        this(CensusLimits.of(IngestLimits.DEFAULTS));
    }

    /** Decodes {@code body}; throws {@link UncompressedTooLargeException} past {@code limitBytes} once inflated. */
    public WriteRequest decode(byte[] body, long limitBytes) {
        byte[] protobuf = inflate(body, limitBytes);
        census.count(protobuf, WriteRequest.getDescriptor());
        WriteRequest request;
        try {
            request = WriteRequest.parseFrom(protobuf);
        } catch (InvalidProtocolBufferException e) {
            throw new InvalidWriteRequestException("body is not a protobuf prometheus.WriteRequest (remote write "
                    + "1.0): " + e.getMessage(), e);
        }
        // protobuf skips fields it does not know: another message (remote write 2.0's Request, text) can parse as
        // an empty WriteRequest, which would answer 204 and store nothing
        if (request.getTimeseriesCount() == 0 && request.getMetadataCount() == 0
                && !request.getUnknownFields().asMap().isEmpty()) {
            throw new InvalidWriteRequestException("body is not a prometheus.WriteRequest (remote write 1.0): it "
                    + "holds no series, only fields " + request.getUnknownFields().asMap().keySet()
                    + " that WriteRequest does not have (remote write 2.0 sends io.prometheus.write.v2.Request)",
                    null);
        }
        return request;
    }

    private byte[] inflate(byte[] body, long limitBytes) {
        if (body.length == 0) {
            throw new InvalidWriteRequestException("empty body: remote write sends a snappy-compressed "
                    + "prometheus.WriteRequest", null);
        }
        int length;
        try {
            length = snappy.getUncompressedLength(body, 0);
        } catch (MalformedInputException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw corrupt(e);
        }
        if (length < 0) {
            throw corrupt(null);
        }
        if ((long) length > (long) body.length * MAX_SNAPPY_RATIO) {
            throw new InvalidWriteRequestException("snappy block declares " + length + " uncompressed bytes, but "
                    + body.length + " compressed bytes hold at most " + (long) body.length * MAX_SNAPPY_RATIO
                    + " (snappy emits at most 64 bytes per 3-byte copy): the declared length is false, or the body is "
                    + "not a snappy block (remote write 1.0 uses the block format, not the framed stream format)",
                    null);
        }
        if (length > limitBytes) {
            throw new UncompressedTooLargeException(length, limitBytes);
        }
        byte[] out = new byte[length];
        try {
            int written = snappy.decompress(body, 0, body.length, out, 0, length);
            if (written != length) {
                throw new InvalidWriteRequestException("snappy block declares " + length + " bytes but holds "
                        + written, null);
            }
        } catch (MalformedInputException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw corrupt(e);
        }
        return out;
    }

    private static InvalidWriteRequestException corrupt(Exception cause) {
        return new InvalidWriteRequestException("body is not snappy block-compressed (remote write 1.0 uses the "
                + "block format, not the framed stream format)" + (cause == null ? "" : ": " + cause.getMessage()),
                cause);
    }

    /** The snappy block inflates past the body limit; answered with 413, nothing stored. */
    public static final class UncompressedTooLargeException extends RuntimeException {

        public UncompressedTooLargeException(long lengthBytes, long limitBytes) {
            super("snappy body inflates to " + lengthBytes + " bytes, over the limit of " + limitBytes
                    + " bytes (caplab.ingest.max-body-bytes); lower queue_config.max_samples_per_send");
        }
    }
}
