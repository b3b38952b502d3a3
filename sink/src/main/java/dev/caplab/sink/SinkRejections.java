package dev.caplab.sink;

import dev.caplab.schema.topic.DeadLetterHeaders;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.schema.vocabulary.InputAlerts;
import dev.caplab.store.access.AlertRepository;
import dev.caplab.store.access.StoreQueryException;
import dev.caplab.store.access.StoreUnavailableException;
import dev.caplab.schema.event.Alert;
import dev.caplab.store.row.RowChecks;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the sink does with a record ClickHouse (or a row's own checks, or a sample's shape) will never take, or the
 * part of it: dead-letters it with the reason and alerts its run, straight into the {@code alerts} table (through
 * Kafka the alert of a run whose id is the problem would be rejected again). Replays give the same alert row, which
 * the table collapses.
 */
final class SinkRejections {

    private static final Logger LOG = LoggerFactory.getLogger(SinkRejections.class);

    private final Producer<String, byte[]> deadLetters;
    private final AlertRepository alerts;
    private final AtomicLong rejected = new AtomicLong();

    SinkRejections(Producer<String, byte[]> deadLetters, AlertRepository alerts) {
        this.deadLetters = deadLetters;
        this.alerts = alerts;
    }

    long rejected() {
        return rejected.get();
    }

    /** Dead-letters {@code r} (waiting for the broker's ack, so it is not lost) and alerts its run if it has one. */
    void reject(ConsumerRecord<String, byte[]> r, String reason) {
        reject(r, r.value(), reason);
    }

    /**
     * As {@link #reject(ConsumerRecord, String)}, the dead letter holding {@code value}: the part of {@code r} that
     * was not stored, when the rest of it was.
     */
    void reject(ConsumerRecord<String, byte[]> r, byte[] value, String reason) {
        rejected.incrementAndGet();
        LOG.warn("sink dead-letters {}-{}@{} (run {}): {}", r.topic(), r.partition(), r.offset(), r.key(), reason);
        try {
            deadLetters.send(new ProducerRecord<>(TopicCatalog.DEAD_LETTER, null, null, r.key(), value,
                    DeadLetterHeaders.add(new RecordHeaders(), "sink", reason, r.topic(), r.partition(), r.offset())))
                    .get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("interrupted dead-lettering " + r.topic() + "-" + r.partition() + "@"
                    + r.offset(), e);
        } catch (ExecutionException e) {
            // Kafka unavailable: retry the batch like a ClickHouse outage rather than lose the record.
            throw new StoreUnavailableException("dead-lettering " + r.topic() + "-" + r.partition() + "@" + r.offset()
                    + " failed: " + e.getCause(), e.getCause());
        }
        String runId = r.key();
        if (runId != null && !runId.isBlank() && runId.length() <= 1024 && !TopicCatalog.ALERTS.equals(r.topic())) {
            try {
                alerts.insertBatch(List.of(RowChecks.alert(Alert.newBuilder().setRunId(runId)
                        .setAt(Instant.ofEpochMilli(Math.max(0, r.timestamp()))).setKind(InputAlerts.KIND)
                        .setMessage(InputAlerts.REJECTED + "sink: " + reason + " (" + r.topic() + "-" + r.partition()
                                + "@" + r.offset() + ")").build())), null);
            } catch (StoreQueryException | IllegalArgumentException e) {
                LOG.error("sink: the alert for {}-{}@{} was refused too; the dead letter holds the reason", r.topic(),
                        r.partition(), r.offset(), e);
            }
        }
    }
}
