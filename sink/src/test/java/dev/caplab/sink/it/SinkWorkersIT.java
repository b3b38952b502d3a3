package dev.caplab.sink.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.store.access.EngineInserts;
import dev.caplab.store.testing.EmbeddedClickHouse;
import dev.caplab.streams.SyntheticRun;
import dev.caplab.sink.ClickHouseSink;
import dev.caplab.sink.SinkSettings;
import dev.caplab.sink.SinkWorkers;
import dev.caplab.streams.it.PacedInput;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two sink workers in one process split the raw topic's partitions, both store rows (each on a bulk-insert
 * connection of its own when the engine is in process, as in {@code caplab up}), and every sample is stored once.
 */
class SinkWorkersIT {

    @RegisterExtension
    static final ItEnvironment ENV = new ItEnvironment();
    private static final String GROUP = "caplab-workers-it";

    @Test
    void twoWorkersSplitThePartitionsAndStoreEverySampleOnce() throws Exception {
        List<String> runs = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            runs.add("workers-run-" + i);
        }
        // the range assignor gives each of two members half of the partitions: runs on both halves
        int half = TopicCatalog.RUN_PARTITIONS / 2;
        assertThat(runs).anyMatch(r -> partition(r) < half).anyMatch(r -> partition(r) >= half);

        SinkSettings settings = new SinkSettings(ENV.bootstrap(), GROUP, List.of(TopicCatalog.SAMPLES), 1000,
                Duration.ofMillis(200), KafkaClientSecurity.NONE, Duration.ZERO);
        EngineInserts direct = EmbeddedClickHouse.shared().engine()
                .map(engine -> new EngineInserts(engine, ENV.db().name())).orElse(null);
        try (SinkWorkers workers = SinkWorkers.start(2, settings, ENV.db().dataSource(), direct);
                Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, ENV.bootstrap()));
                KafkaProducer<String, byte[]> producer = producer()) {
            ItEnvironment.await(Duration.ofSeconds(60), () -> bothMembersAssigned(admin), () -> "");

            producer.initTransactions();
            producer.beginTransaction();
            long samples = 0;
            for (String run : runs) {
                for (SyntheticRun.Input in : SyntheticRun.inputs(run)) {
                    if (in.samples() != null) {
                        producer.send(PacedInput.toRecord(run, in));
                        samples += in.samples().size();
                    }
                }
            }
            producer.commitTransaction();

            long expected = samples;
            ItEnvironment.await(Duration.ofSeconds(90), () -> ENV.scalar(
                    "SELECT count() FROM samples WHERE startsWith(run_id, 'workers-run-')") >= expected,
                    () -> "; " + workers.status().detail());
            // every record up to ours processed and committed: no batch of them can be inserted again
            ENV.awaitCommittedAll(GROUP, List.of(TopicCatalog.SAMPLES), Duration.ofSeconds(60));
            assertThat(ENV.scalar("SELECT count() FROM samples WHERE startsWith(run_id, 'workers-run-')"))
                    .isEqualTo(expected);
            assertThat(ENV.scalar("SELECT count() FROM (SELECT DISTINCT run_id, metric, source, ts FROM samples"
                    + " WHERE startsWith(run_id, 'workers-run-'))")).isEqualTo(expected);
            assertThat(workers.rowsWrittenPerWorker()).as("rows per worker").hasSize(2)
                    .allSatisfy(rows -> assertThat(rows).isPositive());
            assertThat(workers.status().up()).isTrue();
            assertThat(workers.status().detail()).contains("worker 1: ", "worker 2: ");
        }
    }

    /**
     * After a restart the stopped process's members hold the partitions until the group drops them; until then the
     * new sink reads nothing, and its health must say so, not "lag 0" (which reads as "everything is stored").
     */
    @Test
    void aSinkTheGroupHasGivenNoPartitionsSaysSoInsteadOfLagZero() throws Exception {
        String group = "caplab-unassigned-it";
        SinkSettings settings = new SinkSettings(ENV.bootstrap(), group, List.of(TopicCatalog.SAMPLES), 1000,
                Duration.ofMillis(200));
        Properties holderConfig = ClickHouseSink.consumerProperties(settings);
        // a member that stops polling, as a killed process's does: the group waits for it before assigning anew
        holderConfig.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, "60000");
        try (KafkaConsumer<String, byte[]> holder = new KafkaConsumer<>(holderConfig, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            holder.subscribe(List.of(TopicCatalog.SAMPLES));
            ItEnvironment.await(Duration.ofSeconds(60), () -> {
                holder.poll(Duration.ofMillis(100));
                return holder.assignment().size() == TopicCatalog.RUN_PARTITIONS;
            }, () -> "; the holder never got the partitions");

            try (ClickHouseSink sink = ClickHouseSink.start(settings, ENV.db().dataSource())) {
                ItEnvironment.await(Duration.ofSeconds(20), () -> sink.status().detail()
                        .contains("no partitions assigned (group " + group), () -> "; sink: " + sink.status().detail());
                assertThat(sink.status().up()).isTrue();
                assertThat(sink.status().detail()).doesNotContain("lag");

                holder.close(); // leaves the group: the rebalance completes with the sink alone
                ItEnvironment.await(Duration.ofSeconds(60), () -> sink.status().detail().contains("lag 0 records"),
                        () -> "; sink: " + sink.status().detail());
                assertThat(sink.status().detail()).doesNotContain("no partitions assigned");
            }
        }
    }

    private static boolean bothMembersAssigned(Admin admin) {
        ConsumerGroupDescription group;
        try {
            group = admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP);
        } catch (Exception e) {
            throw new IllegalStateException("cannot describe consumer group " + GROUP, e);
        }
        return group.members().size() == 2
                && group.members().stream().allMatch(m -> !m.assignment().topicPartitions().isEmpty());
    }

    /** The partition Kafka's default partitioner gives a record keyed {@code run}. */
    private static int partition(String run) {
        return Utils.toPositive(Utils.murmur2(run.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                % TopicCatalog.RUN_PARTITIONS;
    }

    private static KafkaProducer<String, byte[]> producer() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, ENV.bootstrap());
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "workers-it-input");
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }
}
