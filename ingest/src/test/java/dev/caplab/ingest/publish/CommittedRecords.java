package dev.caplab.ingest.publish;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Everything a read_committed consumer (as streams and the sink are) sees on a topic, read from the beginning up to
 * the last stable offset: proves absence as well as presence, without waiting for a count.
 */
public final class CommittedRecords {

    private CommittedRecords() {
    }

    /** The values of every committed record keyed {@code key}. */
    public static List<byte[]> of(String bootstrapServers, String topic, String key) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<byte[]> values = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = settledEnd(bootstrapServers, consumer, partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read " + topic + " up to " + end + " within 20 s");
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (key.equals(record.key())) {
                        values.add(record.value());
                    }
                }
            }
        }
        return values;
    }

    /**
     * The end offsets once every transaction on {@code partitions} is decided: the last stable offset of
     * {@code committedReader} (a read_committed consumer) equal to the log end. A producer's commitTransaction returns
     * when the coordinator has logged its decision; it writes the commit markers afterwards, so just after a commit
     * the stable offset can still stand before the committed records. Only for topics where no producer keeps a
     * transaction open.
     */
    static Map<TopicPartition, Long> settledEnd(String bootstrapServers, KafkaConsumer<?, ?> committedReader,
            List<TopicPartition> partitions) {
        try (KafkaConsumer<byte[], byte[]> logReader = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted"), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (true) {
                Map<TopicPartition, Long> stable = committedReader.endOffsets(partitions);
                Map<TopicPartition, Long> logEnd = logReader.endOffsets(partitions);
                if (stable.equals(logEnd)) {
                    return stable;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("transactions on " + partitions + " still undecided after 20 s: stable "
                            + stable + ", log end " + logEnd);
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted waiting for " + partitions + " to settle", e);
                }
            }
        }
    }
}
