package dev.caplab.ingest.publish;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    private static final Logger LOG = LoggerFactory.getLogger(TransactionalPublisher.class);
    public static final int DEFAULT_POOL_SIZE = 4;
    /** The coordinator aborts a transaction left open longer than this (a producer that died mid-request). */
    static final int TRANSACTION_TIMEOUT_MS = 60_000;

    private final IntFunction<Producer<String, byte[]>> factory;
    private final BlockingQueue<Pooled> idle;
    /**
     * Transactional-id slots not held by a live producer. A replacement takes the slot of the producer it replaces,
     * so its {@code initTransactions} fences that one and ends its open transaction at once, instead of leaving it
     * to the coordinator's timeout while read_committed consumers of its partitions wait; a live producer's slot is
     * never handed out, so no live producer is fenced.
     */
    private final BlockingQueue<Integer> freeSlots;
    private final int poolSize;
    private final Duration timeout;

    /** A producer and the transactional-id slot it holds. */
    private record Pooled(Producer<String, byte[]> producer, int slot) {
    }

    public TransactionalPublisher(ProducerSettings settings, Duration timeout) {
        this(n -> new KafkaProducer<>(transactionalProperties(settings, timeout, n), new StringSerializer(),
                new ByteArraySerializer()), DEFAULT_POOL_SIZE, timeout);
    }

    TransactionalPublisher(IntFunction<Producer<String, byte[]>> factory, int poolSize, Duration timeout) {
        this.factory = Objects.requireNonNull(factory, "factory");
        this.poolSize = poolSize;
        this.idle = new ArrayBlockingQueue<>(poolSize);
        this.freeSlots = new ArrayBlockingQueue<>(poolSize);
        for (int slot = 1; slot <= poolSize; slot++) {
            freeSlots.add(slot);
        }
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /** The producer settings plus a process-unique transactional id and blocking bounded by the request's wait. */
    static Map<String, Object> transactionalProperties(ProducerSettings settings, Duration timeout, int n) {
        Map<String, Object> props = settings.asProperties();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalIdPrefix(settings.clientId()) + PROCESS_ID + "-" + n);
        props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, TRANSACTION_TIMEOUT_MS);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout.toMillis());
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 32L * 1024 * 1024);
        return props;
    }

    private static final String PROCESS_ID = UUID.randomUUID().toString();

    /** What every transactional id of a publisher with this client id starts with (what a Kafka ACL may grant). */
    public static String transactionalIdPrefix(String clientId) {
        return clientId + "-";
    }

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
        Pooled pooled = acquire(firstKey, topic, what);
        Producer<String, byte[]> producer = pooled.producer();
        boolean reusable = false;
        boolean committing = false;
        try {
            producer.beginTransaction();
            for (ProducerRecord<String, byte[]> record : records) {
                producer.send(record);
            }
            // flushes and surfaces the first failed send: a failed send makes the commit throw
            committing = true;
            producer.commitTransaction();
            reusable = true;
        } catch (ProducerFencedException | OutOfOrderSequenceException | AuthorizationException
                | UnsupportedVersionException e) {
            throw new PublishFailedException(firstKey, topic, what, e);
        } catch (TimeoutException e) {
            if (!committing) {
                // a send blocked past max.block.ms (buffer full, no metadata): nothing was committed, end it now
                reusable = abort(producer);
                throw new PublishFailedException(firstKey, topic, what, e);
            }
            throw new PublishFailedException(firstKey, topic, what + " (commit outcome unknown)", e);
        } catch (KafkaException e) {
            reusable = abort(producer);
            throw new PublishFailedException(firstKey, topic, what, e);
        } finally {
            release(pooled, reusable);
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

    private Pooled acquire(String runId, String topic, String what) {
        Pooled pooled = idle.poll();
        if (pooled != null) {
            return pooled;
        }
        Integer slot = freeSlots.poll();
        if (slot != null) {
            try {
                return start(slot);
            } catch (KafkaException e) {
                throw new PublishFailedException(runId, topic, what + " (no transactional producer)", e);
            }
        }
        try {
            pooled = idle.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PublishFailedException(runId, topic, what, e);
        }
        if (pooled == null) {
            throw new PublishFailedException(runId, topic, what,
                    new TimeoutException("all " + poolSize + " producers busy for " + timeout));
        }
        return pooled;
    }

    /** Producers this publisher keeps, so as many transactions can be in flight at once. */
    public int poolSize() {
        return poolSize;
    }

    /** A producer on {@code slot}, its transactions initialised; on failure the slot is free again. */
    private Pooled start(int slot) {
        Producer<String, byte[]> fresh = null;
        try {
            fresh = factory.apply(slot);
            fresh.initTransactions();
            return new Pooled(fresh, slot);
        } catch (KafkaException e) {
            if (fresh != null) {
                fresh.close(Duration.ZERO);
            }
            freeSlots.add(slot);
            throw e;
        }
    }

    private void release(Pooled pooled, boolean reusable) {
        if (reusable && idle.offer(pooled)) {
            return;
        }
        pooled.producer().close(Duration.ZERO);
        // a successor on the same slot fences the discarded producer and ends its transaction now
        try {
            if (!idle.offer(start(pooled.slot()))) {
                throw new IllegalStateException("transactional producer pool over its size " + poolSize);
            }
        } catch (KafkaException e) {
            LOG.warn("No successor transactional producer on slot {} yet ({}); the slot is free and the next request"
                    + " starts one", pooled.slot(), e.toString());
        }
    }

    @Override
    public void close() {
        for (Pooled pooled = idle.poll(); pooled != null; pooled = idle.poll()) {
            pooled.producer().close();
        }
    }
}
