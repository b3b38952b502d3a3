package dev.caplab.schema.serde;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Serde of {@code caplab.runs}, which carries several lifecycle record types (RunStarted, StepStarted, StepEnded,
 * RunEnded, Annotation, RunDeleted): each value is decoded by its writer fingerprint into the matching generated class, so
 * callers switch on the record's class ({@code if (event instanceof StepStarted s)}).
 */
public final class LifecycleSerde implements Serde<SpecificRecord>, Serializer<SpecificRecord>,
        Deserializer<SpecificRecord> {

    private final KnownSchemas known;
    private final Map<String, AvroSerde<?>> byRecordName = new LinkedHashMap<>();

    public LifecycleSerde(KnownSchemas known) {
        this.known = Objects.requireNonNull(known, "known");
        for (Class<? extends SpecificRecordBase> type : EventTypes.LIFECYCLE) {
            byRecordName.put(EventTypes.schemaOf(type).getFullName(), new AvroSerde<>(type, known));
        }
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public byte[] serialize(String topic, SpecificRecord event) {
        if (event == null) {
            return null;
        }
        AvroSerde serde = byRecordName.get(event.getSchema().getFullName());
        if (serde == null || !serde.type().isInstance(event)) {
            throw new IllegalArgumentException(event.getClass().getName() + " is not a lifecycle event for topic "
                    + topic + "; expected one of " + byRecordName.keySet());
        }
        return serde.serialize(topic, (SpecificRecordBase) event);
    }

    @Override
    public SpecificRecord deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        Long fingerprint = SingleObjectHeader.fingerprintOrNull(data);
        if (fingerprint == null) {
            throw new UndecodableEventException(topic, "lifecycle event", null, data.length,
                    "no Avro single-object header (expected C3 01 and a fingerprint)", null);
        }
        String name = known.recordNameOf(fingerprint).orElse(null);
        AvroSerde<?> serde = name == null ? null : byRecordName.get(name);
        if (serde == null) {
            throw new UndecodableEventException(topic, "lifecycle event", fingerprint, data.length,
                    name == null ? "unknown writer schema fingerprint" : name + " is not a lifecycle event", null);
        }
        return serde.deserialize(topic, data);
    }

    @Override
    public Serializer<SpecificRecord> serializer() {
        return this;
    }

    @Override
    public Deserializer<SpecificRecord> deserializer() {
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
}
