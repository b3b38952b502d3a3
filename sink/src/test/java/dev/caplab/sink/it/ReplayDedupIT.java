package dev.caplab.sink.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.store.access.StepRepository;
import dev.caplab.streams.SyntheticRun;
import dev.caplab.sink.ClickHouseSink;
import dev.caplab.sink.SinkSettings;
import dev.caplab.streams.it.PacedInput;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A full replay of the raw topics by a new consumer group into the same ClickHouse leaves the raw (plain MergeTree)
 * samples table unchanged: the live sink wrote open ranges early and closed them later, the replay writes whole
 * aligned ranges, and the closing tokens match.
 */
class ReplayDedupIT {

    @RegisterExtension
    static final ItEnvironment ENV = new ItEnvironment();
    private static final List<String> RUNS = List.of("replay-a", "replay-b");
    /** Small ranges, so two phases leave ranges open after the first and close them in the second. */
    private static final int RANGE = 8;

    @Test
    void replayByANewGroupDuplicatesNoRawSample() throws Exception {
        List<SyntheticRun.Input> a = SyntheticRun.inputs(RUNS.get(0));
        int half = a.size() / 2;
        long firstPhase = RUNS.size() * a.subList(0, half).stream()
                .mapToLong(in -> in.samples() == null ? 0 : in.samples().size()).sum();
        long expected = (long) RUNS.size() * SyntheticRun.sampleCount();
        long liveRows;
        try (KafkaProducer<String, byte[]> producer = producer();
                ClickHouseSink live = ClickHouseSink.start(settings("caplab-live"), ENV.db().dataSource())) {
            producer.initTransactions();
            publish(producer, 0, half);
            ItEnvironment.await(Duration.ofSeconds(60), () -> ENV.scalar("SELECT count() FROM samples")
                    == firstPhase, () -> "; live sink failure " + live.failure());
            Thread.sleep(1000); // the commit after the last insert
            // The sink commits up to the commit marker; a partition whose next offset (after the marker) is not a
            // multiple of the range left its last range open, written early.
            assertThat(committedOffsets("caplab-live").values()).as("phase one left a range open")
                    .anyMatch(offset -> (offset + 1) % RANGE != 0);
            publish(producer, half, a.size());
            ItEnvironment.await(Duration.ofSeconds(60), () -> ENV.scalar("SELECT count() FROM samples") == expected,
                    () -> "; live sink failure " + live.failure());
            Thread.sleep(1000);
            liveRows = live.rowsWritten();
        }
        Map<String, String> before = totals();
        var steps = new StepRepository(ENV.db().dataSource());
        var stepsBefore = steps.ofRun(RUNS.get(0));

        try (ClickHouseSink replay = ClickHouseSink.start(settings("caplab-replay"), ENV.db().dataSource())) {
            // The replay sends every record again, as many rows as the live sink did; ClickHouse drops the repeats.
            ItEnvironment.await(Duration.ofSeconds(60), () -> replay.rowsWritten() >= liveRows,
                    () -> "; replay wrote " + replay.rowsWritten() + " of " + liveRows + ", failure " + replay.failure());
        }
        assertThat(ENV.scalar("SELECT count() FROM samples")).isEqualTo(expected);
        assertThat(ENV.scalar("SELECT count() - uniqExact(run_id, source, metric, ts) FROM samples")).isZero();
        assertThat(totals()).isEqualTo(before);
        assertThat(steps.ofRun(RUNS.get(0))).isEqualTo(stepsBefore);
    }

    private static SinkSettings settings(String group) {
        return new SinkSettings(ENV.bootstrap(), group, List.of(TopicCatalog.RUNS, TopicCatalog.SAMPLES), RANGE,
                Duration.ofMillis(200));
    }

    /** Inputs [from, to) of every run, in one transaction: a phase becomes visible to the sink all at once. */
    private static void publish(KafkaProducer<String, byte[]> producer, int from, int to) {
        producer.beginTransaction();
        for (String run : RUNS) {
            for (SyntheticRun.Input in : SyntheticRun.inputs(run).subList(from, to)) {
                producer.send(PacedInput.toRecord(run, in));
            }
        }
        producer.commitTransaction();
    }

    private static KafkaProducer<String, byte[]> producer() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, ENV.bootstrap());
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "replay-it-input");
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }

    private static Map<TopicPartition, Long> committedOffsets(String group) {
        try (Admin admin = admin()) {
            Map<TopicPartition, Long> out = new TreeMap<>(
                    java.util.Comparator.comparing(Object::toString));
            admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().forEach((tp, om) -> {
                if (om != null && tp.topic().equals(TopicCatalog.SAMPLES)) {
                    out.put(tp, om.offset());
                }
            });
            return out;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read offsets of " + group, e);
        }
    }

    private static Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, ENV.bootstrap());
        return Admin.create(p);
    }

    /**
     * Count and an order-independent fingerprint of every series: a float sum(value) depends on the order the parts
     * are read in (CI saw 305.0 against 305.00000000000034), a wrapping sum of row hashes does not.
     */
    private static Map<String, String> totals() {
        Map<String, String> out = new TreeMap<>();
        ENV.query("SELECT run_id, source, metric, count(), toString(sum(cityHash64(ts, value))) FROM samples"
                        + " GROUP BY run_id, source, metric",
                rs -> out.put(rs.getString(1) + "/" + rs.getString(2) + "/" + rs.getString(3),
                        rs.getLong(4) + "/" + rs.getString(5)));
        return out;
    }
}
