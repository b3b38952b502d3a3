package dev.caplab.streams.sink;

import dev.caplab.store.access.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies every caplab topic into ClickHouse in large per-partition batches: read_committed, offsets committed only
 * after ClickHouse accepted the batch, each insert with a deterministic dedup token from the batch's offset range,
 * and the range itself committed as an intent first (see {@link BatchIntent}) so a crash never re-forms a batch
 * differently. One thread; {@link #close()} stops it.
 */
public final class ClickHouseSink implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClickHouseSink.class);
    private static final Duration RETRY_BACKOFF = Duration.ofSeconds(1);

    private final SinkSettings settings;
    private final KafkaConsumer<String, byte[]> consumer;
    private final BatchWriter writer;
    private final Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> buffers = new HashMap<>();
    private final Map<TopicPartition, BatchIntent> recovered = new HashMap<>();
    private final AtomicLong rowsWritten = new AtomicLong();
    private final AtomicLong batchesWritten = new AtomicLong();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable failure;

    private ClickHouseSink(SinkSettings settings, DataSource dataSource) {
        this.settings = settings;
        this.consumer = new KafkaConsumer<>(consumerProperties(settings), new StringDeserializer(),
                new ByteArrayDeserializer());
        this.writer = new BatchWriter(dataSource);
        this.thread = Thread.ofPlatform().name("caplab-sink").unstarted(this::run);
    }

    /** Starts the sink on its own thread; close it to stop. */
    public static ClickHouseSink start(SinkSettings settings, DataSource dataSource) {
        ClickHouseSink sink = new ClickHouseSink(settings, dataSource);
        sink.thread.start();
        return sink;
    }

    /** The consumer configuration, semantics pinned: read_committed, manual commits, earliest on first start. */
    public static Properties consumerProperties(SinkSettings s) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, s.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, s.groupId());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(s.maxBatchRecords()));
        return p;
    }

    public long rowsWritten() {
        return rowsWritten.get();
    }

    public long batchesWritten() {
        return batchesWritten.get();
    }

    /** Why the sink stopped on its own, if it did. */
    public Throwable failure() {
        return failure;
    }

    private void run() {
        try {
            consumer.subscribe(settings.topics(), new Recovery());
            while (running) {
                ConsumerRecords<String, byte[]> records = consumer.poll(settings.pollTimeout());
                for (TopicPartition tp : records.partitions()) {
                    buffers.computeIfAbsent(tp, k -> new ArrayList<>()).addAll(records.records(tp));
                }
                for (TopicPartition tp : List.copyOf(buffers.keySet())) {
                    flushReady(tp, records.records(tp).isEmpty());
                }
            }
        } catch (WakeupException e) {
            if (running) {
                failure = e;
            }
        } catch (RuntimeException e) {
            failure = e;
            LOG.error("sink stopped: {}", e.toString(), e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
            stopped.countDown();
        }
    }

    /** Writes what is ready: a recovered batch exactly as it was, else a full batch or, when caught up, the rest. */
    private void flushReady(TopicPartition tp, boolean caughtUp) {
        List<ConsumerRecord<String, byte[]>> buffer = buffers.get(tp);
        while (!buffer.isEmpty()) {
            BatchIntent intent = recovered.get(tp);
            int take;
            if (intent != null) {
                int upTo = 0;
                while (upTo < buffer.size() && buffer.get(upTo).offset() <= intent.lastOffset()) {
                    upTo++;
                }
                boolean complete = upTo < buffer.size() || buffer.get(upTo - 1).offset() == intent.lastOffset();
                if (!complete && !caughtUp) {
                    return; // the rest of the recovered batch is still to come
                }
                take = upTo;
            } else if (buffer.size() >= settings.maxBatchRecords() || caughtUp) {
                take = Math.min(buffer.size(), settings.maxBatchRecords());
            } else {
                return;
            }
            List<ConsumerRecord<String, byte[]>> batch = new ArrayList<>(buffer.subList(0, take));
            writeAndCommit(tp, batch);
            buffer.subList(0, take).clear();
            recovered.remove(tp);
        }
    }

    private void writeAndCommit(TopicPartition tp, List<ConsumerRecord<String, byte[]>> batch) {
        BatchIntent intent = new BatchIntent(tp.topic(), tp.partition(), batch.getFirst().offset(),
                batch.getLast().offset());
        consumer.commitSync(Map.of(tp, intent.asCommit()));
        while (true) {
            try {
                rowsWritten.addAndGet(writer.write(intent, batch));
                break;
            } catch (StoreUnavailableException e) {
                // ClickHouse down: retry the same batch (same token) rather than skip or re-form it.
                LOG.warn("ClickHouse unavailable writing {}, retrying in {}: {}", intent, RETRY_BACKOFF, e.toString());
                sleep();
                if (!running) {
                    throw e;
                }
            }
        }
        consumer.commitSync(Map.of(tp, new OffsetAndMetadata(intent.lastOffset() + 1)));
        batchesWritten.incrementAndGet();
    }

    private static void sleep() {
        try {
            Thread.sleep(RETRY_BACKOFF);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            stopped.await();
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** On assignment, reads the intents a crashed owner left; on revocation, drops unwritten buffers. */
    private final class Recovery implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(java.util.Set.copyOf(partitions));
            committed.forEach((tp, om) -> BatchIntent.from(tp.topic(), tp.partition(), om).ifPresent(intent -> {
                LOG.info("resuming {}: re-forming the batch a previous owner may have written", intent);
                recovered.put(tp, intent);
            }));
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            partitions.forEach(tp -> {
                buffers.remove(tp);
                recovered.remove(tp);
            });
        }
    }
}
