package dev.caplab.ingest.publish;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes the records of one request in one Kafka transaction, so a request is either wholly visible to caplab's
 * consumers (all of them read {@code read_committed}: streams under exactly_once_v2, the sink, the demo loader) or
 * not at all: a failure half-way aborts, and the client's retry of the 5xx cannot duplicate. Transactional
 * producers take one transaction at a time, so a small pool serves concurrent requests; each gets a transactional
 * id unique to this process, since ingest keeps no state a zombie could corrupt.
 *
 * <p>The one ambiguous outcome is a commit that times out (the broker became unreachable while committing): Kafka
 * cannot say whether it committed, the request answers 503, and a retry may duplicate it. That producer is closed,
 * so the transaction completes or aborts at the coordinator, never half.
 */
public final class TransactionalPublisher implements AutoCloseable {

    /** Producers kept for concurrent requests; more concurrent requests wait for one to be free. */
    public static final int DEFAULT_POOL_SIZE = 4;
    /** The coordinator aborts a transaction left open longer than this (a producer that died mid-request). */
    static final int TRANSACTION_TIMEOUT_MS = 60_000;

    private final IntFunction<Producer<String, byte[]>> factory;
    private final BlockingQueue<Producer<String, byte[]>> idle;
    private final AtomicInteger created = new AtomicInteger();
    /** Numbers transactional ids; never reused, so a replacement producer never fences a live one. */
    private final AtomicInteger sequence = new AtomicInteger();
    private final int poolSize;
    private final Duration timeout;

    public TransactionalPublisher(ProducerSettings settings, Duration timeout) {
        this(n -> new KafkaProducer<>(transactionalProperties(settings, timeout, n), new StringSerializer(),
                new ByteArraySerializer()), DEFAULT_POOL_SIZE, timeout);
    }

    TransactionalPublisher(IntFunction<Producer<String, byte[]>> factory, int poolSize, Duration timeout) {
        this.factory = Objects.requireNonNull(factory, "factory");
        this.poolSize = poolSize;
        this.idle = new ArrayBlockingQueue<>(poolSize);
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /** The producer settings plus a process-unique transactional id and blocking bounded by the request's wait. */
    static Map<String, Object> transactionalProperties(ProducerSettings settings, Duration timeout, int n) {
        Map<String, Object> props = settings.asProperties();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, settings.clientId() + "-" + PROCESS_ID + "-" + n);
        props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, TRANSACTION_TIMEOUT_MS);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout.toMillis());
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 32L * 1024 * 1024);
        return props;
    }

    private static final String PROCESS_ID = UUID.randomUUID().toString();

    /**
     * Sends every record in one transaction and returns once it committed; throws {@link PublishFailedException}
     * (nothing visible to read_committed consumers, except after an ambiguous commit timeout) otherwise.
     */
    public void publish(List<ProducerRecord<String, byte[]>> records, String what) {
        if (records.isEmpty()) {
            return;
        }
        String firstKey = records.getFirst().key();
        String topic = records.getFirst().topic();
        Producer<String, byte[]> producer = acquire(firstKey, topic, what);
        boolean reusable = false;
        try {
            producer.beginTransaction();
            for (ProducerRecord<String, byte[]> record : records) {
                producer.send(record);
            }
            // flushes and surfaces the first failed send: a failed send makes the commit throw
            producer.commitTransaction();
            reusable = true;
        } catch (ProducerFencedException | OutOfOrderSequenceException | AuthorizationException
                | UnsupportedVersionException e) {
            throw new PublishFailedException(firstKey, topic, what, e);
        } catch (TimeoutException e) {
            throw new PublishFailedException(firstKey, topic, what + " (commit outcome unknown)", e);
        } catch (KafkaException e) {
            reusable = abort(producer);
            throw new PublishFailedException(firstKey, topic, what, e);
        } finally {
            release(producer, reusable);
        }
    }

    private static boolean abort(Producer<String, byte[]> producer) {
        try {
            producer.abortTransaction();
            return true;
        } catch (KafkaException e) {
            return false;
        }
    }

    private Producer<String, byte[]> acquire(String runId, String topic, String what) {
        Producer<String, byte[]> producer = idle.poll();
        if (producer != null) {
            return producer;
        }
        if (created.incrementAndGet() <= poolSize) {
            Producer<String, byte[]> fresh = null;
            try {
                fresh = factory.apply(sequence.incrementAndGet());
                fresh.initTransactions();
                return fresh;
            } catch (KafkaException e) {
                created.decrementAndGet();
                if (fresh != null) {
                    fresh.close(Duration.ZERO);
                }
                throw new PublishFailedException(runId, topic, what + " (no transactional producer)", e);
            }
        }
        created.decrementAndGet();
        try {
            producer = idle.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PublishFailedException(runId, topic, what, e);
        }
        if (producer == null) {
            throw new PublishFailedException(runId, topic, what,
                    new TimeoutException("all " + poolSize + " producers busy for " + timeout));
        }
        return producer;
    }

    private void release(Producer<String, byte[]> producer, boolean reusable) {
        if (reusable && idle.offer(producer)) {
            return;
        }
        created.decrementAndGet();
        producer.close(Duration.ZERO);
    }

    @Override
    public void close() {
        for (Producer<String, byte[]> producer = idle.poll(); producer != null; producer = idle.poll()) {
            producer.close();
        }
    }
}
