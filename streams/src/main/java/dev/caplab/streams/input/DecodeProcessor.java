package dev.caplab.streams.input;

import dev.caplab.schema.topic.DeadLetterHeaders;
import dev.caplab.streams.Micros;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.serde.UndecodableEventException;
import java.util.function.BiFunction;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Decodes raw input bytes inside the topology, so that a poison pill becomes a {@link InputEvent.Poison} routed to
 * the dead-letter topic with its reason and origin in headers, and processing continues with the next record.
 */
public final class DecodeProcessor implements FixedKeyProcessor<String, byte[], InputEvent> {

    private final BiFunction<String, byte[], InputEvent> decoder;
    private FixedKeyProcessorContext<String, InputEvent> context;

    private DecodeProcessor(BiFunction<String, byte[], InputEvent> decoder) {
        this.decoder = decoder;
    }

    /** Decodes {@code caplab.runs} values with the lifecycle serde. */
    public static DecodeProcessor lifecycle() {
        return new DecodeProcessor((topic, bytes) -> new InputEvent.Lifecycle(
                EventSerdes.lifecycle().deserialize(topic, bytes)));
    }

    /** Decodes {@code caplab.samples} values; a batch with a negative timestamp is rejected as a whole. */
    public static DecodeProcessor samples() {
        return new DecodeProcessor((topic, bytes) -> {
            SampleBatch batch = EventSerdes.sampleBatch().deserialize(topic, bytes);
            for (Sample s : batch.getSamples()) {
                if (s.getTimestamp().isBefore(java.time.Instant.EPOCH)) {
                    return new InputEvent.Poison(bytes, "sample " + s.getSource() + "/" + s.getMetric()
                            + " has negative timestamp " + s.getTimestamp() + " µs");
                }
            }
            return new InputEvent.Samples(batch);
        });
    }

    @Override
    public void init(FixedKeyProcessorContext<String, InputEvent> context) {
        this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<String, byte[]> record) {
        RecordMetadata meta = context.recordMetadata().orElseThrow();
        InputEvent event;
        if (record.value() == null) {
            event = new InputEvent.Poison(null, "null value (tombstone) on a raw topic");
        } else {
            try {
                event = decoder.apply(meta.topic(), record.value());
            } catch (UndecodableEventException e) {
                event = new InputEvent.Poison(record.value(), e.describeAt(meta.partition(), meta.offset()));
            }
        }
        if (event instanceof InputEvent.Poison poison) {
            DeadLetterHeaders.add(record.headers(), "decode", poison.reason(), meta.topic(), meta.partition(),
                    meta.offset());
        }
        context.forward(record.withValue(event));
    }
}
