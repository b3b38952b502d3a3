package dev.caplab.ingest.publish;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Producer configuration every ingest publisher uses, pinned in code so delivery semantics never follow a client
 * default that changes between versions: idempotent, acks from all in-sync replicas, unbounded retries within the
 * delivery timeout, and batching tuned for many small SampleBatch records.
 */
public record ProducerSettings(String bootstrapServers, String clientId, KafkaClientSecurity kafkaSecurity) {

    /** Kafka waits this long to fill a batch; small, because HTTP clients wait for the ack. */
    public static final int LINGER_MS = 5;
    /** Bytes per partition batch: a few SampleBatch values of ~1,000 samples each. */
    public static final int BATCH_BYTES = 512 * 1024;
    /** Upper bound on one request; a SampleBatch is kept well below it by {@link SampleChunks#MAX_SAMPLES}. */
    public static final int MAX_REQUEST_BYTES = 8 * 1024 * 1024;

    public ProducerSettings {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        if (bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("bootstrap servers must not be blank");
        }
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(kafkaSecurity, "kafkaSecurity");
    }

    /** A producer that does not authenticate (PLAINTEXT). */
    public ProducerSettings(String bootstrapServers, String clientId) {
        this(bootstrapServers, clientId, KafkaClientSecurity.NONE);
    }

    /** The producer properties; serializers are passed to the producer's constructor. */
    public Map<String, Object> asProperties() {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        props.put(ProducerConfig.RETRIES_CONFIG, Integer.MAX_VALUE);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000);
        props.put(ProducerConfig.LINGER_MS_CONFIG, LINGER_MS);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, BATCH_BYTES);
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 128L * 1024 * 1024);
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, MAX_REQUEST_BYTES);
        // Raw topics are kept forever; lz4 shrinks SampleBatch records several times and is the cheapest for the whole
        // path: the broker and both consumers handle fewer bytes than uncompressed. zstd stores less for more CPU per
        // sample (bench/README.md, "Kafka's share").
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        props.put(ProducerConfig.PARTITIONER_IGNORE_KEYS_CONFIG, false);
        return kafkaSecurity.applyTo(props);
    }
}
