package dev.caplab.streams;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.DeadLetterHeaders;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.schema.vocabulary.InputAlerts;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams' {@code processing.exception.handler} and {@code production.exception.handler} (KIP-1033, KIP-1034):
 * whatever escapes the topology's own isolation (the run processor dead-letters what it cannot take itself) is
 * dead-lettered with the reason and its run alerted, and the stream thread resumes with the next record, so one
 * record never stops every run. A production failure (e.g. a record over the broker's size limit) dead-letters the
 * record (its value when small enough to be sent) and alerts its run, so derived output is never dropped silently;
 * under exactly-once the failed send still aborts the transaction and the task retries from its last commit, which
 * is why state records are bounded ({@link dev.caplab.streams.run.RunLimits#maxStateBytes()}) instead.
 */
public final class DeadLetterHandler implements ProcessingExceptionHandler, ProductionExceptionHandler {

    /** Larger failed values are dead-lettered without their value (they may be what was too large to send). */
    static final int MAX_DEAD_LETTER_VALUE_BYTES = 64 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterHandler.class);
    private static final char BUFFER_KEY_SEPARATOR = '\u0001';

    /**
     * The value a dead letter may carry: a larger one goes value-less (its reason and origin are in the headers).
     * Under exactly-once a dead letter too large to send would fail the transaction, and the task would retry the
     * same input forever.
     */
    static byte[] sendableValue(byte[] value) {
        return value != null && value.length <= MAX_DEAD_LETTER_VALUE_BYTES ? value : null;
    }

    @Override
    public void configure(Map<String, ?> configs) {
    }

    @Override
    public ProcessingExceptionHandler.Response handleError(ErrorHandlerContext context, Record<?, ?> record,
            Exception exception) {
        String reason = "processing failed in " + context.processorNodeId() + ": " + exception;
        LOG.error("dead-lettering {}-{}@{}: {}", context.topic(), context.partition(), context.offset(), reason,
                exception);
        return ProcessingExceptionHandler.Response.resume(records("streams-processing", reason, context.topic(),
                context.partition(), context.offset(), context.sourceRawKey(), context.sourceRawValue(),
                context.timestamp()));
    }

    @Override
    public ProductionExceptionHandler.Response handleError(ErrorHandlerContext context,
            ProducerRecord<byte[], byte[]> record, Exception exception) {
        return failedSend(context, record, "sending to " + record.topic() + " failed: " + exception, exception);
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public ProductionExceptionHandler.Response handleSerializationError(ErrorHandlerContext context,
            ProducerRecord record, Exception exception, SerializationExceptionOrigin origin) {
        return failedSend(context, new ProducerRecord<byte[], byte[]>(record.topic(), null, null),
                "serializing the " + origin + " for " + record.topic() + " failed: " + exception, exception);
    }

    private static ProductionExceptionHandler.Response failedSend(ErrorHandlerContext context,
            ProducerRecord<byte[], byte[]> record, String reason, Exception exception) {
        LOG.error("caplab streams: {} (input {}-{}@{})", reason, context.topic(), context.partition(),
                context.offset(), exception);
        if (TopicCatalog.DEAD_LETTER.equals(record.topic()) || TopicCatalog.ALERTS.equals(record.topic())) {
            return ProductionExceptionHandler.Response.resume(); // never loop on the dead-letter path itself
        }
        byte[] value = sendableValue(record.value());
        return ProductionExceptionHandler.Response.resume(records("streams-production", reason, record.topic(),
                record.partition() == null ? -1 : record.partition(), context.offset(), record.key(), value,
                context.timestamp()));
    }

    /** The dead letter, and an alert for its run when the key names one. */
    private static List<ProducerRecord<byte[], byte[]>> records(String stage, String reason, String topic,
            int partition, long offset, byte[] key, byte[] value, long timestamp) {
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
        out.add(new ProducerRecord<>(TopicCatalog.DEAD_LETTER, null, null, key, value,
                DeadLetterHeaders.add(new RecordHeaders(), stage, reason, topic, partition, offset)));
        String runId = runIdOf(key);
        if (runId != null) {
            Alert alert = Alert.newBuilder().setRunId(runId).setAt(Instant.ofEpochMilli(Math.max(0, timestamp)))
                    .setKind(InputAlerts.KIND).setStepIndex(null).setMessage(InputAlerts.REJECTED + reason
                            + " (" + topic + "-" + partition + "@" + offset + ")").build();
            out.add(new ProducerRecord<>(TopicCatalog.ALERTS, key(runId), EventSerdes.alert().serialize(
                    TopicCatalog.ALERTS, alert)));
        }
        return out;
    }

    /** The run id of a record key: run-keyed topics and the run-state changelog use it whole, the partials store as
     * its prefix. Null when blank or implausibly long. */
    static String runIdOf(byte[] key) {
        if (key == null) {
            return null;
        }
        String k = new String(key, StandardCharsets.UTF_8);
        int sep = k.indexOf(BUFFER_KEY_SEPARATOR);
        String id = sep >= 0 ? k.substring(0, sep) : k;
        return id.isBlank() || id.length() > 1024 ? null : id;
    }

    private static byte[] key(String runId) {
        return runId.getBytes(StandardCharsets.UTF_8);
    }
}
