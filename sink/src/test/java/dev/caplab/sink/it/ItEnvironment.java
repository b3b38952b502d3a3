package dev.caplab.sink.it;

import dev.caplab.broker.CommittedRecords;
import dev.caplab.broker.EmbeddedKafkaCluster;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.store.testing.TestDatabase;
import dev.caplab.streams.it.KafkaEnvironment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What every pipeline IT (topology, sink, ClickHouse) runs on, as a JUnit extension per test class: the streams ITs'
 * {@link KafkaEnvironment} (scratch directory, broker or cluster) and a fresh ClickHouse database, all removed after
 * the class.
 */
final class ItEnvironment implements BeforeAllCallback, AfterAllCallback {

    private final KafkaEnvironment kafka;
    private TestDatabase db;

    /** The single embedded broker, as {@code caplab up} runs it. */
    ItEnvironment() {
        this(new KafkaEnvironment());
    }

    private ItEnvironment(KafkaEnvironment kafka) {
        this.kafka = kafka;
    }

    /**
     * A cluster of {@code nodes} Kafka nodes; the catalog topics are created as {@code caplab migrate
     * --replication-factor <nodes>} creates them.
     */
    static ItEnvironment cluster(int nodes) {
        return new ItEnvironment(KafkaEnvironment.cluster(nodes));
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        kafka.beforeAll(context);
        db = EmbeddedClickHouse.shared().freshDatabase(context.getRequiredTestClass().getSimpleName());
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        try {
            if (db != null) {
                EmbeddedClickHouse.shared().drop(db);
            }
        } finally {
            kafka.afterAll(context);
        }
    }

    Path dir() {
        return kafka.dir();
    }

    String bootstrap() {
        return kafka.bootstrap();
    }

    /** The cluster of a {@link #cluster(int)} environment, to kill and restart its nodes. */
    EmbeddedKafkaCluster kafkaCluster() {
        return kafka.kafkaCluster();
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
        KafkaEnvironment.await(timeout, condition, context);
    }

    /** {@link KafkaEnvironment#awaitCommittedAll}: the group has processed and committed everything written so far. */
    void awaitCommittedAll(String group, Collection<String> topics, Duration timeout) throws InterruptedException {
        kafka.awaitCommittedAll(group, topics, timeout);
    }

    /** Every dead letter committed so far. */
    List<ConsumerRecord<String, byte[]>> deadLetters() {
        return CommittedRecords.read(bootstrap(), TopicCatalog.DEAD_LETTER, Duration.ofSeconds(30));
    }

    /** A header of a record as text; empty when it has none. */
    static String header(ConsumerRecord<String, byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? "" : new String(h.value(), StandardCharsets.UTF_8);
    }
}
