package dev.caplab.ingest.publish;

import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes lifecycle events (RunStarted, StepStarted, StepEnded, RunEnded, Annotation) to {@code caplab.runs},
 * keyed by their run id so they share a partition with the run's samples.
 */
public final class LifecyclePublisher implements LifecycleSink, AutoCloseable {

    private final Producer<String, SpecificRecord> producer;

    public LifecyclePublisher(ProducerSettings settings) {
        this(new KafkaProducer<>(settings.asProperties(), new StringSerializer(), EventSerdes.lifecycle()));
    }

    LifecyclePublisher(Producer<String, SpecificRecord> producer) {
        this.producer = Objects.requireNonNull(producer, "producer");
    }

    /** Sends one lifecycle event; completes when the broker acknowledged it. */
    @Override
    public CompletableFuture<RecordMetadata> publish(SpecificRecord event) {
        String runId = runIdOf(event);
        return KafkaSends.send(producer, TopicCatalog.RUNS, runId, event, event.getSchema().getName());
    }

    /** The run id every lifecycle record carries in its {@code runId} field. */
    public static String runIdOf(SpecificRecord event) {
        Objects.requireNonNull(event, "event");
        org.apache.avro.Schema.Field field = event.getSchema().getField("runId");
        if (field == null || !(event.get(field.pos()) instanceof CharSequence runId)) {
            throw new IllegalArgumentException(event.getSchema().getFullName() + " has no runId: not a lifecycle event");
        }
        return runId.toString();
    }

    @Override
    public void close() {
        producer.close();
    }
}
