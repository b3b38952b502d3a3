package dev.caplab.streams.it;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.broker.BrokerSettings;
import dev.caplab.broker.EmbeddedKafkaBroker;
import dev.caplab.broker.EmbeddedKafkaCluster;
import dev.caplab.broker.TopicProvisioner;
import dev.caplab.schema.topic.TopicCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What every streams IT runs on, as a JUnit extension per test class: a scratch directory and an in-process broker
 * or cluster (catalog topics created), both removed after the class. The sink's ITs add a ClickHouse database to it.
 */
public final class KafkaEnvironment implements BeforeAllCallback, AfterAllCallback {

    private final int kafkaNodes;
    private Path dir;
    private AutoCloseable kafka;
    private String bootstrap;
    private EmbeddedKafkaCluster cluster;

    /** The single embedded broker, as {@code caplab up} runs it. */
    public KafkaEnvironment() {
        this(1);
    }

    private KafkaEnvironment(int kafkaNodes) {
        this.kafkaNodes = kafkaNodes;
    }

    /**
     * A cluster of {@code nodes} Kafka nodes; the catalog topics are created as {@code caplab migrate
     * --replication-factor <nodes>} creates them.
     */
    public static KafkaEnvironment cluster(int nodes) {
        return new KafkaEnvironment(nodes);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        String owner = context.getRequiredTestClass().getSimpleName();
        dir = Files.createTempDirectory("caplab-" + owner + "-");
        if (kafkaNodes == 1) {
            EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(BrokerSettings.loopback(dir.resolve("kafka"), 0));
            kafka = broker;
            bootstrap = broker.bootstrapServers();
        } else {
            cluster = EmbeddedKafkaCluster.start(kafkaNodes, dir.resolve("kafka"));
            kafka = cluster;
            bootstrap = cluster.bootstrapServers();
            TopicProvisioner.ensure(bootstrap, KafkaClientSecurity.NONE, TopicCatalog.all(), cluster.replication().factor());
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        try {
            if (kafka != null) {
                kafka.close();
            }
        } finally {
            try (Stream<Path> paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    public Path dir() {
        return dir;
    }

    public String bootstrap() {
        return bootstrap;
    }

    /** The cluster of a {@link #cluster(int)} environment, to kill and restart its nodes. */
    public EmbeddedKafkaCluster kafkaCluster() {
        if (cluster == null) {
            throw new IllegalStateException("this environment runs the single embedded broker, not a cluster");
        }
        return cluster;
    }

    /** Polls {@code condition} every 250 ms; fails with {@code context} (e.g. a child's log) after {@code timeout}. */
    public static void await(Duration timeout, BooleanSupplier condition, Supplier<String> context)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + timeout + context.get());
            }
            Thread.sleep(250);
        }
    }

    /**
     * Waits until consumer group {@code group} has committed, on every partition of {@code topics} that holds records,
     * the offset after its last record (read committed; the markers after it are no records): the group has processed
     * and committed everything written so far, so nothing it read can be processed, or written, again. A condition for
     * "nothing more will happen", where a fixed sleep would only hope so.
     */
    public void awaitCommittedAll(String group, java.util.Collection<String> topics, Duration timeout)
            throws InterruptedException {
        java.util.Map<org.apache.kafka.common.TopicPartition, Long> next = nextRecordOffsets(topics);
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(java.util.Map.of(
                org.apache.kafka.clients.admin.AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            java.util.Map<org.apache.kafka.common.TopicPartition, Long> committed = new java.util.HashMap<>();
            await(timeout, () -> {
                try {
                    admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get()
                            .forEach((tp, o) -> committed.put(tp, o == null ? -1 : o.offset()));
                } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
                    throw new IllegalStateException("reading the offsets of group " + group, e);
                }
                return next.entrySet().stream().allMatch(e -> committed.getOrDefault(e.getKey(), -1L) >= e.getValue());
            }, () -> ": group " + group + " committed " + committed + ", records end at " + next);
        }
    }

    /** Per partition of {@code topics} holding records: the offset after its last record, read committed. */
    public java.util.Map<org.apache.kafka.common.TopicPartition, Long> nextRecordOffsets(java.util.Collection<String> topics) {
        java.util.Map<org.apache.kafka.common.TopicPartition, Long> next = new java.util.HashMap<>();
        try (var consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<>(java.util.Map.<String, Object>of(
                org.apache.kafka.clients.consumer.ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                org.apache.kafka.clients.consumer.ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                org.apache.kafka.clients.consumer.ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            for (String topic : topics) {
                for (var p : consumer.partitionsFor(topic)) {
                    var tp = new org.apache.kafka.common.TopicPartition(topic, p.partition());
                    consumer.assign(java.util.List.of(tp));
                    consumer.seekToEnd(java.util.List.of(tp));
                    long end = consumer.position(tp);
                    // scan back in growing windows until a record shows: each transaction ends with one marker
                    for (long window = 16; end > 0 && !next.containsKey(tp); window *= 8) {
                        consumer.seek(tp, Math.max(0, end - window));
                        while (consumer.position(tp) < end) {
                            for (var r : consumer.poll(Duration.ofMillis(500))) {
                                next.merge(tp, r.offset() + 1, Math::max);
                            }
                        }
                        if (end - window <= 0) {
                            break;
                        }
                    }
                }
            }
        }
        return next;
    }
}
