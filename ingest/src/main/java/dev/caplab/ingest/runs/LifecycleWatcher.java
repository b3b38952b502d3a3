package dev.caplab.ingest.runs;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.serde.UndecodableEventException;
import dev.caplab.schema.topic.TopicCatalog;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads {@code caplab.runs} from its start, read committed, into a {@link RunDirectory}, on a thread of its own, for as
 * long as it is open. Without a consumer group: every ingest process keeps its own whole view. Until the topic exists
 * it retries every second; a record it cannot decode is skipped with a warning (the streams app dead-letters it). Once
 * it has read up to where the topic ended when it began, it marks the directory loaded.
 */
public final class LifecycleWatcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LifecycleWatcher.class);
    /** A poll ends as soon as records come, so its length only sets how often an idle watcher's thread wakes. */
    private static final Duration POLL = Duration.ofSeconds(1);
    private static final Duration IDLE_FETCH_WAIT = Duration.ofSeconds(5);

    private final KafkaConsumer<String, byte[]> consumer;
    private final RunDirectory directory;
    private final Thread thread;
    private volatile boolean open = true;

    public LifecycleWatcher(String bootstrapServers, KafkaClientSecurity security, RunDirectory directory) {
        Map<String, Object> config = security.applyTo(new HashMap<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.CLIENT_ID_CONFIG, "caplab-ingest-lifecycle",
                // An idle consumer's fetch waits this long at the broker for records before it comes back empty and
                // is sent again: the default 500 ms is two fetches a second for nothing while no run changes. A
                // record that arrives ends the wait at once, so a longer one adds no delay here, where a poll takes
                // all the records fetched (next line) and none stays buffered: the consumer leaves a partition with
                // buffered records out of its next fetch, which then could not be sent before the waiting one came
                // back.
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, (int) IDLE_FETCH_WAIT.toMillis(),
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.MAX_VALUE)));
        this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        this.directory = directory;
        this.thread = Thread.ofPlatform().daemon().name("caplab-ingest-lifecycle").unstarted(this::run);
        thread.start();
    }

    private void run() {
        try {
            while (open && !assign()) {
                Thread.sleep(1_000); // the topic is made by `caplab migrate` / `up`; writes go on without the view
            }
            Map<TopicPartition, Long> ends = consumer.endOffsets(consumer.assignment());
            while (open) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
                    apply(record);
                }
                if (ends != null && caughtUp(ends)) {
                    directory.markLoaded();
                    ends = null;
                }
            }
        } catch (WakeupException | InterruptedException e) {
            // closing
        } catch (RuntimeException e) {
            LOG.error("Reading {} stopped: writes are no longer split into new runs after an idle end",
                    TopicCatalog.RUNS, e);
        } finally {
            consumer.close();
        }
    }

    private boolean caughtUp(Map<TopicPartition, Long> ends) {
        return ends.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }

    private boolean assign() {
        List<PartitionInfo> partitions;
        try {
            partitions = consumer.partitionsFor(TopicCatalog.RUNS, Duration.ofSeconds(5));
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            return false; // no broker yet, or no such topic: try again
        }
        if (partitions == null || partitions.isEmpty()) {
            return false;
        }
        List<TopicPartition> assigned = partitions.stream()
                .map(p -> new TopicPartition(TopicCatalog.RUNS, p.partition())).toList();
        consumer.assign(assigned);
        consumer.seekToBeginning(assigned);
        return true;
    }

    private void apply(ConsumerRecord<String, byte[]> record) {
        if (record.value() == null) {
            return;
        }
        try {
            directory.apply(EventSerdes.lifecycle().deserialize(record.topic(), record.value()));
        } catch (UndecodableEventException e) {
            LOG.warn("Skipping an undecodable lifecycle record: {}", e.describeAt(record.partition(), record.offset()));
        }
    }

    @Override
    public void close() throws InterruptedException {
        open = false;
        consumer.wakeup();
        thread.join(Duration.ofSeconds(5));
    }
}
