package dev.caplab.ingest.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.broker.BrokerSettings;
import dev.caplab.broker.EmbeddedKafkaBroker;
import dev.caplab.schema.topic.TopicSpec;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The failure of issue #11 on a real broker: a request whose later record the broker refuses (over its 1 MiB
 * {@code message.max.bytes}, as the ~1.6 MB incompressible tag was). Sent one by one (the old path) the records
 * before it stay visible and a client's retry duplicates them; in one transaction none is visible.
 */
class TransactionalPublisherIT {

    private static final String TOPIC = "caplab.tx-it";
    /** A topic with the broker's defaults, as caplab's own topics keep them (message.max.bytes 1 MiB). */
    private static final TopicSpec SPEC = new TopicSpec(TOPIC, 1, Map.of(), "transactional publisher IT");
    private static EmbeddedKafkaBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = EmbeddedKafkaBroker.start(BrokerSettings.loopback(Files.createTempDirectory("caplab-tx-it"), 0));
        broker.createTopics(List.of(SPEC));
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void aRefusedRecordLeavesNothingOfItsRequestVisibleAndThePublisherStaysUsable() {
        String run = "run-" + UUID.randomUUID();
        List<ProducerRecord<String, byte[]>> request = requestWithOversizedThirdRecord(run);
        try (TransactionalPublisher publisher = new TransactionalPublisher(
                new ProducerSettings(broker.bootstrapServers(), "tx-it"), Duration.ofSeconds(30))) {
            assertThatThrownBy(() -> publisher.publish(request, "3 records"))
                    .isInstanceOf(PublishFailedException.class);
            assertThat(CommittedRecords.of(broker.bootstrapServers(), TOPIC, run)).isEmpty();

            publisher.publish(request.subList(0, 2), "2 records");
            assertThat(CommittedRecords.of(broker.bootstrapServers(), TOPIC, run)).hasSize(2);
        }
    }

    /** The control: the same request through a plain idempotent producer leaves its first records behind. */
    @Test
    void sentWithoutATransactionTheRecordsBeforeTheRefusedOneStayVisible() throws Exception {
        String run = "run-" + UUID.randomUUID();
        List<ProducerRecord<String, byte[]>> request = requestWithOversizedThirdRecord(run);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                new ProducerSettings(broker.bootstrapServers(), "plain-it").asProperties(), new StringSerializer(),
                new ByteArraySerializer())) {
            List<java.util.concurrent.Future<?>> sends = new ArrayList<>();
            for (ProducerRecord<String, byte[]> record : request) {
                sends.add(producer.send(record));
            }
            producer.flush();
            sends.get(0).get();
            sends.get(1).get();
            assertThatThrownBy(() -> sends.get(2).get()).hasRootCauseInstanceOf(
                    org.apache.kafka.common.errors.RecordTooLargeException.class);
        }
        assertThat(CommittedRecords.of(broker.bootstrapServers(), TOPIC, run)).hasSize(2);
    }

    /** Two small records, then 1.6 MB of random bytes: below the producer's 8 MiB, above the broker's 1 MiB. */
    private static List<ProducerRecord<String, byte[]>> requestWithOversizedThirdRecord(String run) {
        byte[] incompressible = new byte[1_600_000];
        new Random(11).nextBytes(incompressible);
        return List.of(new ProducerRecord<>(TOPIC, run, new byte[] {1}),
                new ProducerRecord<>(TOPIC, run, new byte[] {2}),
                new ProducerRecord<>(TOPIC, run, incompressible));
    }
}
