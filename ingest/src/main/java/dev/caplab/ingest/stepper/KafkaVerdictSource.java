package dev.caplab.ingest.stepper;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.AlertKind;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.serde.UndecodableEventException;
import dev.caplab.schema.topic.TopicCatalog;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verdicts from {@code caplab.verdicts} and STEP_FAILED alerts from {@code caplab.alerts} for one run, read from the
 * start of both topics (a verdict may land before the stepper asks). Without a consumer group: it only reads.
 */
public final class KafkaVerdictSource implements VerdictSource, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaVerdictSource.class);

    private final KafkaConsumer<String, byte[]> consumer;
    private final Map<Integer, StepOutcome> seen = new HashMap<>();

    public KafkaVerdictSource(String bootstrapServers, KafkaClientSecurity kafkaSecurity) {
        Map<String, Object> config = kafkaSecurity.applyTo(new HashMap<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")));
        this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = java.util.stream.Stream.of(TopicCatalog.VERDICTS, TopicCatalog.ALERTS)
                .flatMap(t -> consumer.partitionsFor(t).stream().map(p -> new TopicPartition(t, p.partition())))
                .toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    @Override
    public Optional<StepOutcome> awaitVerdict(String runId, int stepIndex, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        do {
            for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                if (runId.equals(record.key())) {
                    remember(record);
                }
            }
            if (seen.containsKey(stepIndex)) {
                return Optional.of(seen.get(stepIndex));
            }
        } while (System.nanoTime() < deadline);
        return Optional.empty();
    }

    private void remember(ConsumerRecord<String, byte[]> record) {
        try {
            if (record.topic().equals(TopicCatalog.VERDICTS)) {
                StepVerdict v = EventSerdes.stepVerdict().deserialize(record.topic(), record.value());
                if (v != null) {
                    seen.put(v.getStepIndex(), new StepOutcome(v.getPassed(), v.getContaminated(),
                            v.getPassed() ? null : reasonOf(v)));
                }
            } else {
                Alert a = EventSerdes.alert().deserialize(record.topic(), record.value());
                // raised for uncontaminated failing steps only; the verdict, when read, says the same and more
                if (a != null && a.getKind() == AlertKind.STEP_FAILED && a.getStepIndex() != null
                        && !seen.containsKey(a.getStepIndex())) {
                    seen.put(a.getStepIndex(), new StepOutcome(false, a.getMessage()));
                }
            }
        } catch (UndecodableEventException e) {
            log.warn("Ignoring undecodable record while waiting for verdicts: {}",
                    e.describeAt(record.partition(), record.offset()));
        }
    }

    private static String reasonOf(StepVerdict v) {
        return v.getOutcomes().stream().filter(o -> !o.getPassed())
                .map(o -> o.getRule().getName() + (o.getObserved() != null ? " (observed " + o.getObserved() + ")" : ""))
                .reduce((a, b) -> a + ", " + b).orElse("step failed");
    }

    @Override
    public void close() {
        consumer.close();
    }
}
