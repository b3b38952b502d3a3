package dev.caplab.broker;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.topic.TopicCatalog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaClusterIT {

    @TempDir
    Path dir;

    @Test
    void threeNodesReplicateAndKeepAcceptingTransactionsWhileTheLeaderIsDown() throws Exception {
        try (EmbeddedKafkaCluster cluster = EmbeddedKafkaCluster.start(3, dir);
                Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                        cluster.bootstrapServers()))) {
            TopicProvisioner.ensure(cluster.bootstrapServers(), KafkaClientSecurity.NONE, TopicCatalog.all(), cluster.replication().factor());
            TopicDescription runs = describe(admin, TopicCatalog.RUNS);
            assertThat(runs.partitions()).hasSize(TopicCatalog.RUN_PARTITIONS)
                    .allSatisfy(p -> assertThat(p.replicas()).hasSize(3));
            assertThat(admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, TopicCatalog.RUNS)))
                    .all().get().values().iterator().next().get("min.insync.replicas").value()).isEqualTo("2");

            send(cluster, 0, 10);
            int leader = runs.partitions().getFirst().leader().id();
            cluster.kill(leader);
            // Two of three replicas left: min ISR 2 still met, so acks=all transactions go on after the failover.
            send(cluster, 10, 20);
            assertThat(CommittedRecords.readDecided(cluster.bootstrapServers(), TopicCatalog.RUNS,
                    Duration.ofSeconds(60)))
                    .extracting(r -> new String(r.value())).containsExactlyInAnyOrderElementsOf(
                            IntStream.range(0, 20).mapToObj(String::valueOf).toList());
            assertThat(describe(admin, "__transaction_state").partitions())
                    .allSatisfy(p -> assertThat(p.replicas()).hasSize(3));

            cluster.restart(leader);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (describe(admin, TopicCatalog.RUNS).partitions().stream().anyMatch(p -> p.isr().size() < 3)) {
                assertThat(System.nanoTime()).as("restarted node " + leader + " back in every ISR")
                        .isLessThan(deadline);
                Thread.sleep(250);
            }
        }
    }

    private static void send(EmbeddedKafkaCluster cluster, int from, int to) {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "cluster-it-" + UUID.randomUUID()),
                new StringSerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int i = from; i < to; i++) {
                producer.send(new ProducerRecord<>(TopicCatalog.RUNS, "run-" + i, String.valueOf(i).getBytes()));
            }
            producer.commitTransaction();
        }
    }

    /** The topic as the cluster describes it, once the node asked has learnt of it (creation reaches nodes one by one). */
    private static TopicDescription describe(Admin admin, String topic) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }
}
