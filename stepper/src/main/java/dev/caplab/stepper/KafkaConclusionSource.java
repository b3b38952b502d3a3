package dev.caplab.stepper;

import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.serde.UndecodableEventException;
import dev.caplab.schema.topic.TopicCatalog;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Run conclusions from {@code caplab.conclusions}, read committed from the start of the topic (a conclusion may land
 * before the stepper asks); per run the highest version wins, as in the store. Without a consumer group: it only
 * reads.
 */
public final class KafkaConclusionSource implements ConclusionSource, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaConclusionSource.class);

    private final KafkaConsumer<String, byte[]> consumer;
    private final Map<String, RunConclusion> newest = new HashMap<>();

    public KafkaConclusionSource(String bootstrapServers, KafkaClientSecurity kafkaSecurity) {
        Map<String, Object> config = kafkaSecurity.applyTo(new HashMap<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")));
        this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = consumer.partitionsFor(TopicCatalog.CONCLUSIONS).stream()
                .map(p -> new TopicPartition(TopicCatalog.CONCLUSIONS, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    @Override
    public Optional<RunConclusion> awaitStepClosed(String runId, int stepIndex, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        do {
            for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                if (runId.equals(record.key())) {
                    remember(record);
                }
            }
            RunConclusion latest = newest.get(runId);
            if (latest != null && ConclusionSource.accountsFor(latest, stepIndex)) {
                return Optional.of(latest);
            }
        } while (System.nanoTime() < deadline);
        return Optional.empty();
    }

    private void remember(ConsumerRecord<String, byte[]> record) {
        try {
            RunConclusion c = EventSerdes.runConclusion().deserialize(record.topic(), record.value());
            if (c != null) {
                newest.merge(record.key(), c, (old, now) -> now.getVersion() >= old.getVersion() ? now : old);
            }
        } catch (UndecodableEventException e) {
            log.warn("Ignoring undecodable record while waiting for run conclusions: {}",
                    e.describeAt(record.partition(), record.offset()));
        }
    }

    @Override
    public void close() {
        consumer.close();
    }
}
