package dev.caplab.broker;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Test oracle input: every committed record of a topic (read_committed), up to its last stable offsets at the call
 * ({@link #read}) or up to its log end at the call once every transaction before it is decided ({@link
 * #readDecided}).
 */
public final class CommittedRecords {

    private CommittedRecords() {
    }

    /** Records of all partitions, each partition in offset order; fails when the end is not reached in time. */
    public static List<ConsumerRecord<String, byte[]>> read(String bootstrap, String topic, Duration timeout) {
        return read(bootstrap, KafkaClientSecurity.NONE, topic, timeout);
    }

    /**
     * Every committed record below the log end at the call, read once the transactions that wrote them are decided.
     * A producer's commitTransaction returns when the coordinator has logged the decision, before the commit
     * markers reach the partitions, so {@link #read} just after a commit can stop short of the committed records.
     * Waits out any transaction open at the call (a killed producer's until it times out).
     */
    public static List<ConsumerRecord<String, byte[]>> readDecided(String bootstrap, String topic,
            Duration timeout) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        try (KafkaConsumer<String, byte[]> logEnd = new KafkaConsumer<>(p, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = logEnd.partitionsFor(topic).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            return read(bootstrap, KafkaClientSecurity.NONE, topic, timeout, logEnd.endOffsets(parts));
        }
    }

    /** The same, logged in as {@code login} (a broker that requires SASL/PLAIN). */
    public static List<ConsumerRecord<String, byte[]>> read(String bootstrap, KafkaClientSecurity login, String topic,
            Duration timeout) {
        return read(bootstrap, login, topic, timeout, null);
    }

    /** Reads up to {@code ends}, or, when null, up to the last stable offsets at the call. */
    private static List<ConsumerRecord<String, byte[]>> read(String bootstrap, KafkaClientSecurity login,
            String topic, Duration timeout, Map<TopicPartition, Long> until) {
        Properties p = new Properties();
        login.applyTo(p);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(p, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(topic).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            // With read_committed, endOffsets is the last stable offset: nothing beyond it is decided yet. A
            // read_committed position passes a log end only once every transaction below it is decided.
            Map<TopicPartition, Long> ends = until != null ? until : c.endOffsets(parts);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (parts.stream().anyMatch(tp -> c.position(tp) < ends.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read " + topic + " up to " + ends + " within " + timeout);
                }
                for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) {
                    if (r.offset() < ends.get(new TopicPartition(r.topic(), r.partition()))) {
                        out.add(r);
                    }
                }
            }
        }
        return out;
    }
}
