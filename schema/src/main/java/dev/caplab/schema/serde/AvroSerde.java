package dev.caplab.schema.serde;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka serde of one generated event type in Avro single-object encoding. Decoding resolves every known writer
 * version of the same record to the current class; anything else raises {@link UndecodableEventException}.
 * Thread-safe: Avro's message encoder and decoder keep per-thread buffers.
 */
public final class AvroSerde<T extends SpecificRecordBase> implements Serde<T>, Serializer<T>, Deserializer<T> {

    private final Class<T> type;
    private final Schema readerSchema;
    private final KnownSchemas known;
    private final BinaryMessageEncoder<T> encoder;
    private final BinaryMessageDecoder<T> decoder;

    /** A hand-written codec of the current writer schema's body, for a high-volume type; one per thread. */
    interface BodyCodec<T> {
        /** {@code header} then the Avro binary body of {@code event}. */
        byte[] encode(byte[] header, T event);

        /** The event whose Avro binary body starts at {@code offset} and runs to the end of {@code data}. */
        T decode(byte[] data, int offset);
    }

    private final ThreadLocal<BodyCodec<T>> bodyCodec;
    private final long currentFingerprint;
    private final byte[] header;

    public AvroSerde(Class<T> type, KnownSchemas known) {
        this(type, known, null);
    }

    /** With {@code bodyCodec} (may be null), the current writer schema's bodies are written and read by hand. */
    AvroSerde(Class<T> type, KnownSchemas known, Supplier<BodyCodec<T>> bodyCodec) {
        AvroTrust.install();
        this.type = Objects.requireNonNull(type, "type");
        this.known = Objects.requireNonNull(known, "known");
        this.readerSchema = EventTypes.schemaOf(type);
        SpecificData model = SpecificData.getForClass(type);
        this.encoder = new BinaryMessageEncoder<>(model, readerSchema);
        this.decoder = new BinaryMessageDecoder<>(model, readerSchema);
        known.writersOf(readerSchema.getFullName()).forEach(decoder::addSchema);
        this.bodyCodec = bodyCodec == null ? null : ThreadLocal.withInitial(bodyCodec);
        this.currentFingerprint = KnownSchemas.fingerprint(readerSchema);
        this.header = SingleObjectHeader.of(currentFingerprint);
    }

    /** The generated class this serde reads and writes. */
    public Class<T> type() {
        return type;
    }

    @Override
    public byte[] serialize(String topic, T event) {
        if (event == null) {
            return null;
        }
        try {
            return bodyCodec != null ? bodyCodec.get().encode(header, event) : toArray(encoder.encode(event));
        } catch (IOException | AvroRuntimeException | ClassCastException | NullPointerException
                | ArithmeticException e) {
            throw new org.apache.kafka.common.errors.SerializationException(
                    "cannot encode " + type.getSimpleName() + " for topic " + topic + ": " + e.getMessage(), e);
        }
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        Long fingerprint = SingleObjectHeader.fingerprintOrNull(data);
        if (fingerprint == null) {
            throw undecodable(topic, data, null, "no Avro single-object header (expected C3 01 and a fingerprint)", null);
        }
        String writerName = known.recordNameOf(fingerprint).orElse(null);
        if (writerName == null) {
            throw undecodable(topic, data, fingerprint, "unknown writer schema fingerprint", null);
        }
        if (!writerName.equals(readerSchema.getFullName())) {
            throw undecodable(topic, data, fingerprint, "bytes hold a " + writerName, null);
        }
        try {
            if (bodyCodec != null && fingerprint == currentFingerprint) {
                return bodyCodec.get().decode(data, SingleObjectHeader.LENGTH);
            }
            return decoder.decode(data);
        } catch (IOException | AvroRuntimeException | IndexOutOfBoundsException | ClassCastException
                | IllegalArgumentException | java.time.DateTimeException | ArithmeticException e) {
            throw undecodable(topic, data, fingerprint, "corrupt or truncated payload: " + e, e);
        }
    }

    @Override
    public Serializer<T> serializer() {
        return this;
    }

    @Override
    public Deserializer<T> deserializer() {
        return this;
    }

    @Override
    public void configure(java.util.Map<String, ?> configs, boolean isKey) {
        // nothing to configure: the known writer schemas are fixed at construction
    }

    @Override
    public void close() {
        // stateless: nothing to release
    }

    private UndecodableEventException undecodable(String topic, byte[] data, Long fp, String reason, Throwable cause) {
        return new UndecodableEventException(topic, type.getSimpleName(), fp, data.length, reason, cause);
    }

    private static byte[] toArray(ByteBuffer buffer) {
        if (buffer.hasArray() && buffer.arrayOffset() == 0 && buffer.position() == 0
                && buffer.remaining() == buffer.array().length) {
            return buffer.array();
        }
        byte[] copy = new byte[buffer.remaining()];
        buffer.duplicate().get(copy);
        return copy;
    }

    @Override
    public String toString() {
        return "AvroSerde[" + type.getSimpleName() + ", writers=" + Arrays.toString(
                known.writersOf(readerSchema.getFullName()).stream().map(KnownSchemas::fingerprint).toArray()) + "]";
    }
}
