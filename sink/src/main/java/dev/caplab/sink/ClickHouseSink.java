package dev.caplab.sink;

import dev.caplab.schema.health.RoleStatus;
import dev.caplab.store.access.AlertRepository;
import dev.caplab.store.access.EngineInserts;
import dev.caplab.store.access.StoreUnavailableException;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
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
 * differently. Batches are cut at multiples of {@link SinkSettings#maxBatchRecords()} per partition, so a replay
 * by another consumer group presents the same tokens for every closed range. One thread; {@link #close()} stops it.
 * A record that can never be stored is dead-lettered and its run alerted, the rest of its batch stored (see
 * {@link BatchWriter}); a ClickHouse outage is retried, never dead-lettered.
 */
public final class ClickHouseSink implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClickHouseSink.class);
    private static final Duration RETRY_BACKOFF = Duration.ofSeconds(1);
    /** The sink thread's name; {@code caplab up}'s background priority finds sink threads by it. */
    public static final String THREAD_NAME = "caplab-sink";

    private final SinkSettings settings;
    private final KafkaConsumer<String, byte[]> consumer;
    private final BatchWriter writer;
    private final KafkaProducer<String, byte[]> deadLetters;
    private final SinkRejections rejections;
    private final Map<TopicPartition, List<ConsumerRecord<String, byte[]>>> buffers = new HashMap<>();
    private final Map<TopicPartition, BatchIntent> recovered = new HashMap<>();
    /** When (System.nanoTime) the record at the head of each partition's buffer was buffered. */
    private final Map<TopicPartition, Long> headBufferedAt = new HashMap<>();
    private final AtomicLong rowsWritten = new AtomicLong();
    private final AtomicLong batchesWritten = new AtomicLong();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable failure;
    private volatile Instant lastInsertAt;
    private volatile long lagRecords = -1;
    /** Partitions the group gave this sink at its last poll; -1 before its first poll returned. */
    private volatile int partitionsAssigned = -1;

    private ClickHouseSink(SinkSettings settings, DataSource dataSource, EngineInserts direct, String threadName) {
        this.settings = settings;
        this.consumer = new KafkaConsumer<>(consumerProperties(settings), new StringDeserializer(),
                new ByteArrayDeserializer());
        this.deadLetters = new KafkaProducer<>(producerProperties(settings), new StringSerializer(),
                new ByteArraySerializer());
        this.rejections = new SinkRejections(deadLetters, new AlertRepository(dataSource));
        this.writer = new BatchWriter(dataSource, direct, rejections);
        this.thread = Thread.ofPlatform().name(threadName).unstarted(this::run);
    }

    /** Starts the sink on its own thread; close it to stop. */
    public static ClickHouseSink start(SinkSettings settings, DataSource dataSource) {
        return start(settings, dataSource, null);
    }

    /**
     * As {@link #start(SinkSettings, DataSource)}; with {@code direct} (the engine of this process, as in
     * {@code caplab up}) raw samples skip the driver and the loopback HTTP interface.
     */
    public static ClickHouseSink start(SinkSettings settings, DataSource dataSource, EngineInserts direct) {
        return start(settings, dataSource, direct, THREAD_NAME);
    }

    /** As {@link #start(SinkSettings, DataSource, EngineInserts)}, on a thread named {@code threadName}. */
    static ClickHouseSink start(SinkSettings settings, DataSource dataSource, EngineInserts direct,
            String threadName) {
        ClickHouseSink sink = new ClickHouseSink(settings, dataSource, direct, threadName);
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
        return s.kafkaSecurity().applyTo(p);
    }

    /** The dead-letter producer: idempotent, acks from all replicas (a rejected record must not be lost). */
    static Properties producerProperties(SinkSettings s) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, s.bootstrapServers());
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, s.groupId() + "-dead-letters");
        return s.kafkaSecurity().applyTo(p);
    }

    /** Records the sink refused for good (dead-lettered with the reason, the run alerted). */
    public long recordsRejected() {
        return rejections.rejected();
    }

    /** When ClickHouse last accepted a batch, if it has. */
    public Optional<Instant> lastInsertAt() {
        return Optional.ofNullable(lastInsertAt);
    }

    /**
     * Down once the sink thread stopped on its own; the detail names the last insert and the records it is behind
     * (summed over its partitions, after its last poll), or that the group has given it no partitions: then it
     * reads nothing, and a lag of 0 would tell an operator watching a restart that everything is stored.
     */
    public RoleStatus status() {
        boolean up = thread.isAlive() || !running;
        String detail = (failure != null ? "stopped: " + failure + "; " : thread.isAlive() ? "" : "not running; ")
                + "last insert " + (lastInsertAt == null ? "none yet" : lastInsertAt.toString()) + ", "
                + progress() + ", rejected " + rejections.rejected();
        return new RoleStatus("sink", up && failure == null, detail);
    }

    private String progress() {
        int assigned = partitionsAssigned;
        if (assigned == 0) {
            return "no partitions assigned (group " + settings.groupId() + " is rebalancing - a stopped process's"
                    + " members leave it after their session timeout - or has more members than partitions)";
        }
        return "lag " + (assigned < 0 || lagRecords < 0 ? "unknown" : lagRecords + " records");
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
                long now = System.nanoTime();
                for (TopicPartition tp : records.partitions()) {
                    List<ConsumerRecord<String, byte[]>> buffer = buffers.computeIfAbsent(tp, k -> new ArrayList<>());
                    if (buffer.isEmpty()) {
                        headBufferedAt.put(tp, now);
                    }
                    buffer.addAll(records.records(tp));
                }
                for (TopicPartition tp : List.copyOf(buffers.keySet())) {
                    flushReady(tp, caughtUp(tp, records.records(tp).isEmpty()));
                }
                lagRecords = lag();
                partitionsAssigned = consumer.assignment().size();
            }
        } catch (WakeupException e) {
            if (running) {
                failure = e;
            }
        } catch (RuntimeException e) {
            failure = e;
            LOG.error("CAPLAB SINK STOPPED: nothing more reaches ClickHouse: {}", e.toString(), e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
            deadLetters.close(Duration.ofSeconds(5));
            stopped.countDown();
        }
    }

    /** Records behind the log end over the assigned partitions; -1 when some lag is not known yet. */
    private long lag() {
        long sum = 0;
        for (TopicPartition tp : consumer.assignment()) {
            java.util.OptionalLong l = consumer.currentLag(tp);
            if (l.isEmpty()) {
                return -1;
            }
            sum += l.getAsLong();
        }
        return sum;
    }

    /**
     * Writes what is ready: a recovered batch exactly as it was; else the buffered part of the aligned range at the
     * head of the buffer, once the consumer is past the range's end (a closing batch) or caught up (an open batch,
     * so live data does not wait for a range to fill).
     */
    private void flushReady(TopicPartition tp, boolean caughtUp) {
        List<ConsumerRecord<String, byte[]>> buffer = buffers.get(tp);
        while (!buffer.isEmpty()) {
            BatchIntent intent = recovered.get(tp);
            int take;
            if (intent != null) {
                take = countUpTo(buffer, intent.lastOffset());
                if (take == 0) {
                    recovered.remove(tp); // nothing of the recorded batch is left to re-form
                    continue;
                }
                boolean complete = take < buffer.size() || buffer.get(take - 1).offset() == intent.lastOffset();
                if (!complete && !caughtUp) {
                    return; // the rest of the recovered batch is still to come
                }
            } else {
                long first = buffer.getFirst().offset();
                long rangeStart = first - first % settings.maxBatchRecords();
                long rangeEnd = rangeStart + settings.maxBatchRecords();
                take = countUpTo(buffer, rangeEnd - 1);
                // Past the range's end when a later record is buffered or the position (which skips transaction
                // markers and aborted records) has left the range: no other record of the range can come.
                boolean closes = take < buffer.size() || consumer.position(tp) >= rangeEnd;
                if (!closes && (!caughtUp || lingering(tp))) {
                    return;
                }
                intent = new BatchIntent(tp.topic(), tp.partition(), first, buffer.get(take - 1).offset(),
                        rangeStart, rangeEnd, closes);
            }
            List<ConsumerRecord<String, byte[]>> batch = new ArrayList<>(buffer.subList(0, take));
            writeAndCommit(tp, intent, batch, recovered.containsKey(tp));
            buffer.subList(0, take).clear();
            recovered.remove(tp);
            headBufferedAt.put(tp, System.nanoTime());
        }
    }

    /** Whether the open batch at the head of {@code tp}'s buffer may still wait for more records. */
    private boolean lingering(TopicPartition tp) {
        long linger = settings.lingerOf(tp.topic()).toNanos();
        Long since = headBufferedAt.get(tp);
        return linger > 0 && since != null && System.nanoTime() - since < linger;
    }

    /**
     * Whether the consumer has read everything committed in {@code tp}: its lag behind the last stable offset is 0.
     * An empty poll alone is no proof (a replay's fetches for one partition can skip a poll), and a partial write
     * there would cut a range where the live sink did not.
     */
    private boolean caughtUp(TopicPartition tp, boolean emptyPoll) {
        java.util.OptionalLong lag = consumer.currentLag(tp);
        return lag.isPresent() ? lag.getAsLong() == 0 : emptyPoll;
    }

    private static int countUpTo(List<ConsumerRecord<String, byte[]>> buffer, long lastOffset) {
        int n = 0;
        while (n < buffer.size() && buffer.get(n).offset() <= lastOffset) {
            n++;
        }
        return n;
    }

    private void writeAndCommit(TopicPartition tp, BatchIntent intent, List<ConsumerRecord<String, byte[]>> batch,
            boolean reformed) {
        consumer.commitSync(Map.of(tp, intent.asCommit()));
        boolean rewrite = reformed;
        while (true) {
            try {
                rowsWritten.addAndGet(writer.write(intent, batch, rewrite));
                break;
            } catch (StoreUnavailableException e) {
                rewrite = true; // part of it may be stored
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
        lastInsertAt = Instant.now();
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
                headBufferedAt.remove(tp);
            });
        }
    }
}
