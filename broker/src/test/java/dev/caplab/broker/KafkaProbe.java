package dev.caplab.broker;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Test probe: does a client with this login get to produce or consume on a topic within 5 s, and if not, why. */
public final class KafkaProbe {

    private static final int TIMEOUT_MS = 5_000;

    private KafkaProbe() {
    }

    /** Sends one record and waits for the ack; returns why it failed (unwrapped), or null when it was acked. */
    public static Throwable produce(String bootstrap, KafkaClientSecurity security, String topic, String value) {
        Map<String, Object> config = security.applyTo(new HashMap<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, TIMEOUT_MS,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, TIMEOUT_MS,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, TIMEOUT_MS - 1_000)));
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, "probe", value)).get();
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            return e;
        }
    }

    /** Asks for the topic's partitions and polls it once; returns why that failed, or null when it worked. */
    public static Throwable consume(String bootstrap, KafkaClientSecurity security, String topic) {
        Map<String, Object> config = security.applyTo(new HashMap<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "probe-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest")));
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.partitionsFor(topic, Duration.ofMillis(TIMEOUT_MS));
            consumer.subscribe(List.of(topic));
            consumer.poll(Duration.ofMillis(TIMEOUT_MS));
            return null;
        } catch (Exception e) {
            return e;
        }
    }

    /**
     * Reads the topic's partitions from their start without a consumer group (as the stepper reads conclusions),
     * polling once; returns why that failed, or null when it worked.
     */
    public static Throwable read(String bootstrap, KafkaClientSecurity security, String topic) {
        Map<String, Object> config = security.applyTo(new HashMap<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TIMEOUT_MS)));
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofMillis(TIMEOUT_MS)).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            consumer.poll(Duration.ofMillis(TIMEOUT_MS));
            return null;
        } catch (Exception e) {
            return e;
        }
    }
}
