package dev.caplab.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.schema.topic.TopicCatalog;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaBrokerIT {

    @TempDir
    Path dataDir;

    @Test
    void transactionalBatchSurvivesRestartOnTheSameDataDir() throws Exception {
        List<String> committed = List.of("a", "b", "c");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(BrokerSettings.loopback(dataDir, 0))) {
            assertThat(topicNames(broker)).containsAll(TopicCatalog.all().stream().map(t -> t.name()).toList());
            try (KafkaProducer<String, String> producer = transactionalProducer(broker)) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(TopicCatalog.RUNS, "run-1", "aborted")).get();
                producer.abortTransaction();
                producer.beginTransaction();
                for (String value : committed) {
                    producer.send(new ProducerRecord<>(TopicCatalog.RUNS, "run-1", value));
                }
                producer.commitTransaction();
            }
            assertThat(readCommitted(broker, committed.size())).containsExactlyElementsOf(committed);
        }

        try (EmbeddedKafkaBroker restarted = EmbeddedKafkaBroker.start(BrokerSettings.loopback(dataDir, 0))) {
            assertThat(readCommitted(restarted, committed.size())).containsExactlyElementsOf(committed);
        }
    }

    @Test
    void portInUseFailsNamingThePort() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            assertThatThrownBy(() -> EmbeddedKafkaBroker.start(BrokerSettings.loopback(dataDir, port)))
                    .isInstanceOf(PortInUseException.class)
                    .hasMessageContaining("Kafka port " + port);
        }
    }

    private static Set<String> topicNames(EmbeddedKafkaBroker broker) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            return admin.listTopics().names().get();
        }
    }

    private static KafkaProducer<String, String> transactionalProducer(EmbeddedKafkaBroker broker) {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "it-" + UUID.randomUUID(),
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true),
                new StringSerializer(), new StringSerializer());
    }

    private static List<String> readCommitted(EmbeddedKafkaBroker broker, int expected) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "it-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(TopicCatalog.RUNS));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (values.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
            // One more poll proves nothing beyond the committed batch (the aborted record) is visible.
            consumer.poll(Duration.ofMillis(500)).forEach(r -> values.add(r.value()));
        }
        return values;
    }
}
