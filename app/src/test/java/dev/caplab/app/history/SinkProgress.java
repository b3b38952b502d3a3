package dev.caplab.app.history;

import dev.caplab.sink.SinkSettings;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * What the sink of a {@code caplab up} has stored, told by Kafka's own figures: the offsets its group committed, which
 * it commits only once a batch is written (and a deleted run's rows erased).
 */
final class SinkProgress {

    private SinkProgress() {
    }

    /**
     * Topics read whole: per partition holding records, the offset after its last committed record; and how many
     * records carry {@code key}.
     */
    record Contents(Map<TopicPartition, Long> next, long keyed) {
    }

    /** Reads {@code topics} from the start to their end, read committed. */
    static Contents read(String bootstrap, Collection<String> topics, String key) {
        Map<TopicPartition, Long> next = new HashMap<>();
        long keyed = 0;
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = topics.stream().flatMap(t -> consumer.partitionsFor(t).stream()
                    .map(p -> new TopicPartition(t, p.partition()))).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read " + topics + " to their end " + ends);
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    next.merge(new TopicPartition(r.topic(), r.partition()), r.offset() + 1, Math::max);
                    keyed += Objects.equals(key, r.key()) ? 1 : 0;
                }
            }
        }
        return new Contents(next, keyed);
    }

    /** Returns once caplab up's sink has committed every partition of {@code next} up to its offset. */
    static void awaitStored(String bootstrap, Map<TopicPartition, Long> next, Duration patience) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            long deadline = System.nanoTime() + patience.toNanos();
            while (true) {
                Map<TopicPartition, OffsetAndMetadata> committed = committed(admin);
                if (next.entrySet().stream().allMatch(e -> committed.get(e.getKey()) != null
                        && committed.get(e.getKey()).offset() >= e.getValue())) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the sink committed " + committed + ", not yet " + next);
                }
                Thread.sleep(250);
            }
        }
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(Admin admin) throws InterruptedException {
        try {
            Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
            admin.listConsumerGroupOffsets(SinkSettings.DEFAULT_GROUP).partitionsToOffsetAndMetadata().get()
                    .forEach((tp, om) -> {
                        if (om != null) {
                            out.put(tp, om);
                        }
                    });
            return out;
        } catch (ExecutionException e) {
            throw new IllegalStateException("reading the offsets of " + SinkSettings.DEFAULT_GROUP, e.getCause());
        }
    }
}
