package dev.caplab.streams.it;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.broker.BrokerSettings;
import dev.caplab.broker.EmbeddedKafkaBroker;
import dev.caplab.broker.EmbeddedKafkaCluster;
import dev.caplab.broker.TopicProvisioner;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.store.testing.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What every streams IT runs on, as a JUnit extension per test class: a scratch directory, an in-process broker
 * or cluster (catalog topics created) and a fresh ClickHouse database, all removed after the class.
 */
final class ItEnvironment implements BeforeAllCallback, AfterAllCallback {

    private final int kafkaNodes;
    private Path dir;
    private AutoCloseable kafka;
    private String bootstrap;
    private EmbeddedKafkaCluster cluster;
    private TestDatabase db;

    /** The single embedded broker, as {@code caplab up} runs it. */
    ItEnvironment() {
        this(1);
    }

    private ItEnvironment(int kafkaNodes) {
        this.kafkaNodes = kafkaNodes;
    }

    /**
     * A cluster of {@code nodes} Kafka nodes; the catalog topics are created as {@code caplab migrate
     * --replication-factor <nodes>} creates them.
     */
    static ItEnvironment cluster(int nodes) {
        return new ItEnvironment(nodes);
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
        db = EmbeddedClickHouse.shared().freshDatabase(owner);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        try {
            if (kafka != null) {
                kafka.close();
            }
            if (db != null) {
                EmbeddedClickHouse.shared().drop(db);
            }
        } finally {
            try (Stream<Path> paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    Path dir() {
        return dir;
    }

    String bootstrap() {
        return bootstrap;
    }

    /** The cluster of a {@link #cluster(int)} environment, to kill and restart its nodes. */
    EmbeddedKafkaCluster kafkaCluster() {
        if (cluster == null) {
            throw new IllegalStateException("this environment runs the single embedded broker, not a cluster");
        }
        return cluster;
    }

    TestDatabase db() {
        return db;
    }

    /** The first column of the first row of {@code sql}, as a long. */
    long scalar(String sql) {
        long[] out = new long[1];
        query(sql, rs -> out[0] = rs.getLong(1));
        return out[0];
    }

    /** Runs {@code sql} on the class's database and hands every row to {@code handler}. */
    void query(String sql, RowHandler handler) {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                handler.row(rs);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("query failed on " + db.name() + ": " + sql, e);
        }
    }

    /** Reads one row. */
    @FunctionalInterface
    interface RowHandler {
        void row(ResultSet rs) throws SQLException;
    }

    /** Polls {@code condition} every 250 ms; fails with {@code context} (e.g. a child's log) after {@code timeout}. */
    static void await(Duration timeout, BooleanSupplier condition, Supplier<String> context)
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
    void awaitCommittedAll(String group, java.util.Collection<String> topics, Duration timeout)
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
    java.util.Map<org.apache.kafka.common.TopicPartition, Long> nextRecordOffsets(java.util.Collection<String> topics) {
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
