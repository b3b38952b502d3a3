package dev.caplab.ingest.k6;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.broker.BrokerSettings;
import dev.caplab.broker.EmbeddedKafkaBroker;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.topic.TopicSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Unkeyed messages as xk6-output-kafka writes them, in both formats, through the real broker. */
class Xk6KafkaConsumerIT {

    @TempDir
    Path dataDir;

    @Test
    void jsonAndInfluxMessagesBecomeSamplesAndBadOnesAreCounted() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(BrokerSettings.loopback(dataDir, 0))) {
            broker.createTopics(List.of(new TopicSpec("k6-json", 1, Map.of(), "test"),
                    new TopicSpec("k6-influx", 1, Map.of(), "test")));
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                    Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                    new ByteArraySerializer(), new ByteArraySerializer())) {
                send(producer, "k6-json", "{\"type\":\"Point\",\"data\":{\"time\":\"2024-03-01T08:00:00Z\",\"value\":3,"
                        + "\"tags\":{\"run\":\"r-json\",\"status\":\"200\"}},\"metric\":\"http_reqs\"}");
                send(producer, "k6-json", "{\"type\":\"Point\",\"data\":{\"time\":\"nope\"},\"metric\":\"x\"}");
                send(producer, "k6-influx", "http_req_duration,status=200 value=97.5 1709280000000000000\n"
                        + "vus value=12 1709280000000000000");
            }
            RecordingSink sink = new RecordingSink();
            Xk6KafkaConsumer json = new Xk6KafkaConsumer(new Xk6KafkaConsumer.Settings(broker.bootstrapServers(),
                    "k6-json", null, Xk6KafkaConsumer.Format.JSON, null, "lg-1"), sink);
            Xk6KafkaConsumer influx = new Xk6KafkaConsumer(new Xk6KafkaConsumer.Settings(broker.bootstrapServers(),
                    "k6-influx", null, Xk6KafkaConsumer.Format.INFLUXDB, "r-influx", null), sink);
            Thread a = Thread.ofPlatform().start(json);
            Thread b = Thread.ofPlatform().start(influx);
            long deadline = System.nanoTime() + 30_000_000_000L;
            while ((json.samplesPublished() < 1 || influx.samplesPublished() < 2 || json.rejected() < 1)
                    && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            json.close();
            influx.close();
            a.join(10_000);
            b.join(10_000);

            synchronized (sink) {
                assertThat(sink.byRun.get("r-json")).singleElement().satisfies(s -> {
                    assertThat(s.getValue()).isEqualTo(3.0);
                    assertThat(s.getSource()).isEqualTo("lg-1");
                });
                assertThat(sink.byRun.get("r-influx")).extracting(Sample::getMetric)
                        .containsExactly("http_req_duration", "vus");
            }
            assertThat(json.rejected()).isEqualTo(1);
        }
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, String value) throws Exception {
        producer.send(new ProducerRecord<>(topic, value.getBytes(StandardCharsets.UTF_8))).get();
    }
}
