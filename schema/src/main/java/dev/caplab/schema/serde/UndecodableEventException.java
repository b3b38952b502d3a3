package dev.caplab.schema.serde;

import java.util.OptionalLong;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Bytes on a caplab topic that are not a known event: wrong marker, unknown writer fingerprint, or truncated or
 * corrupt payload. A Kafka {@link SerializationException}, so Streams' deserialization handler sees it and the
 * topology can dead-letter the record; {@link #describeAt(int, long)} adds the partition and offset it knows.
 */
public final class UndecodableEventException extends SerializationException {

    private final String topic;
    private final String expectedType;
    private final Long writerFingerprint;
    private final int byteLength;
    private final String reason;

    public UndecodableEventException(String topic, String expectedType, Long writerFingerprint, int byteLength,
            String reason, Throwable cause) {
        super(describe(topic, expectedType, writerFingerprint, byteLength, reason), cause);
        this.topic = topic;
        this.expectedType = expectedType;
        this.writerFingerprint = writerFingerprint;
        this.byteLength = byteLength;
        this.reason = reason;
    }

    public String topic() {
        return topic;
    }

    /** The record type (or "lifecycle event") the decoder was asked for. */
    public String expectedType() {
        return expectedType;
    }

    /** The fingerprint in the header, absent when the header itself was unreadable. */
    public OptionalLong writerFingerprint() {
        return writerFingerprint == null ? OptionalLong.empty() : OptionalLong.of(writerFingerprint);
    }

    public int byteLength() {
        return byteLength;
    }

    public String reason() {
        return reason;
    }

    /** The message with the record's location, for logs and dead-letter headers. */
    public String describeAt(int partition, long offset) {
        return getMessage() + " at " + topic + "-" + partition + "@" + offset;
    }

    private static String describe(String topic, String expectedType, Long fingerprint, int length, String reason) {
        String fp = fingerprint == null ? "none" : String.format("%016x", fingerprint);
        return "undecodable " + expectedType + " on topic " + topic + " (" + length + " bytes, writer fingerprint "
                + fp + "): " + reason;
    }
}
