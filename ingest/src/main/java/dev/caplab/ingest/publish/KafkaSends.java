package dev.caplab.ingest.publish;

import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/** Turns the producer's callback into a future that fails with a {@link PublishFailedException} naming the run. */
final class KafkaSends {

    private KafkaSends() {
    }

    static <V> CompletableFuture<RecordMetadata> send(Producer<String, V> producer, String topic, String runId,
            V value, String what) {
        CompletableFuture<RecordMetadata> acked = new CompletableFuture<>();
        try {
            producer.send(new ProducerRecord<>(topic, runId, value), (metadata, error) -> {
                if (error != null) {
                    acked.completeExceptionally(new PublishFailedException(runId, topic, what, error));
                } else {
                    acked.complete(metadata);
                }
            });
        } catch (RuntimeException e) {
            acked.completeExceptionally(new PublishFailedException(runId, topic, what, e));
        }
        return acked;
    }
}
