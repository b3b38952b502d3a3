package dev.caplab.app.demo;

import dev.caplab.ingest.publish.ProducerSettings;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the demo runs into the real pipeline: lifecycle events to {@code caplab.runs} and sample batches to
 * {@code caplab.samples}, keyed by run id, with the schema serdes. Each run goes in one Kafka transaction, so a
 * read_committed reader (the exactly-once streams app) sees a run whole or not at all; a run whose RunStarted is
 * already committed on {@code caplab.runs} is skipped, which makes loading idempotent across restarts.
 */
public final class DemoLoader {

    private static final Logger log = LoggerFactory.getLogger(DemoLoader.class);

    /** One transactional id for every loader: a new loader fences an older one and aborts its open transaction. */
    static final String TRANSACTIONAL_ID = "caplab-demo-loader";
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

    private DemoLoader() {
    }

    /** Loads every run of {@link DemoRuns#all()} that the cluster does not hold yet. */
    public static DemoLoadReport load(String bootstrapServers, KafkaClientSecurity security) {
        return load(bootstrapServers, security, DemoRuns.all());
    }

    /** Loads the given runs that the cluster does not hold yet, in order, one transaction per run. */
    public static DemoLoadReport load(String bootstrapServers, KafkaClientSecurity security, List<DemoRun> runs) {
        Set<String> wanted = new LinkedHashSet<>();
        runs.forEach(r -> wanted.add(r.runId()));
        Set<String> present = presentRunIds(bootstrapServers, security, wanted);
        List<String> loaded = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        long lifecycle = 0;
        long batches = 0;
        long samples = 0;
        try (Producer<String, byte[]> producer = new KafkaProducer<>(producerProperties(bootstrapServers, security),
                new StringSerializer(), new ByteArraySerializer())) {
            initTransactions(producer, bootstrapServers);
            for (DemoRun run : runs) {
                if (present.contains(run.runId())) {
                    skipped.add(run.runId());
                    continue;
                }
                publish(producer, bootstrapServers, run);
                loaded.add(run.runId());
                for (SpecificRecord event : run.events()) {
                    if (event instanceof SampleBatch batch) {
                        batches++;
                        samples += batch.getSamples().size();
                    } else {
                        lifecycle++;
                    }
                }
            }
        }
        DemoLoadReport report = new DemoLoadReport(loaded, skipped, lifecycle, batches, samples);
        log.info("{}", report.summary());
        return report;
    }

    private static void initTransactions(Producer<String, byte[]> producer, String bootstrapServers) {
        try {
            producer.initTransactions();
        } catch (KafkaException e) {
            throw new DemoLoadException(bootstrapServers, null, "cannot start a transactional producer", e);
        }
    }

    private static void publish(Producer<String, byte[]> producer, String bootstrapServers, DemoRun run) {
        try {
            producer.beginTransaction();
            for (SpecificRecord event : run.events()) {
                if (event instanceof SampleBatch batch) {
                    producer.send(new ProducerRecord<>(TopicCatalog.SAMPLES, run.runId(),
                            EventSerdes.sampleBatch().serialize(TopicCatalog.SAMPLES, batch)));
                } else {
                    producer.send(new ProducerRecord<>(TopicCatalog.RUNS, run.runId(),
                            EventSerdes.lifecycle().serialize(TopicCatalog.RUNS, event)));
                }
            }
            producer.commitTransaction();
        } catch (ProducerFencedException e) {
            // another loader took over the transactional id: it will load the rest; aborting is not allowed now
            throw new DemoLoadException(bootstrapServers, run.runId(), "fenced by a newer demo loader", e);
        } catch (KafkaException e) {
            abort(producer, bootstrapServers, run, e);
            throw new DemoLoadException(bootstrapServers, run.runId(), "transaction aborted", e);
        }
    }

    private static void abort(Producer<String, byte[]> producer, String bootstrapServers, DemoRun run,
            KafkaException cause) {
        try {
            producer.abortTransaction();
        } catch (KafkaException e) {
            cause.addSuppressed(e);
            log.warn("demo run {} on {}: abort failed too; the broker times the transaction out", run.runId(),
                    bootstrapServers, e);
        }
    }

    /** Run ids among {@code wanted} whose RunStarted is committed on {@code caplab.runs}. */
    static Set<String> presentRunIds(String bootstrapServers, KafkaClientSecurity security, Set<String> wanted) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "caplab-demo-loader-check");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        Set<String> present = new LinkedHashSet<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(security.applyTo(props), new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(TopicCatalog.RUNS, READ_TIMEOUT).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            if (partitions.isEmpty()) {
                throw new DemoLoadException(bootstrapServers, null, "topic " + TopicCatalog.RUNS + " does not exist",
                        null);
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, READ_TIMEOUT);
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (!caughtUp(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    throw new DemoLoadException(bootstrapServers, null, "could not read " + TopicCatalog.RUNS
                            + " to its end within " + READ_TIMEOUT, null);
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    // only our keys are decoded: other runs' events are none of the loader's business
                    if (record.key() != null && wanted.contains(record.key())
                            && EventSerdes.lifecycle().deserialize(record.topic(), record.value()) instanceof RunStarted) {
                        present.add(record.key());
                    }
                }
            }
        } catch (KafkaException e) {
            throw new DemoLoadException(bootstrapServers, null, "cannot read " + TopicCatalog.RUNS, e);
        }
        return present;
    }

    private static boolean caughtUp(KafkaConsumer<String, byte[]> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, Object> producerProperties(String bootstrapServers, KafkaClientSecurity security) {
        Map<String, Object> props = new ProducerSettings(bootstrapServers, "caplab-demo-loader", security).asProperties();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, TRANSACTIONAL_ID);
        // a run is a few hundred records; a minute is far more than one commit needs on any cluster
        props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 60_000);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000);
        // one request in flight: the first batches of a transaction to a fresh partition otherwise race and the
        // broker rejects them out of order before the retry succeeds (harmless, but it logs errors); a run is small
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        return props;
    }
}
