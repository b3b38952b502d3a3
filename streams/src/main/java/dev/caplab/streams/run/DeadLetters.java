package dev.caplab.streams.run;

import dev.caplab.schema.limits.SampleShape;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.DeadLetterHeaders;
import dev.caplab.streams.input.InputEvent;
import java.time.Instant;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Input the run processor leaves out: the record goes to the dead-letter topic with the reason and where it came
 * from in its headers ({@link DeadLetterHeaders}), counted in the rejected-records sensor, and its run (when it has a
 * usable id) is alerted.
 */
final class DeadLetters {

    private static final String STAGE = "run-processor";
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);

    private final ProcessorContext<String, DerivedEvent> context;
    private final Sensor rejectedSensor;

    DeadLetters(ProcessorContext<String, DerivedEvent> context, Sensor rejectedSensor) {
        this.context = context;
        this.rejectedSensor = rejectedSensor;
    }

    /** Dead-letters the record with {@code reason} and alerts its run (when it has a usable id). */
    void reject(Record<String, InputEvent> record, RecordMetadata meta, String runId, String reason) {
        deadLetter(record, meta, reason);
        if (runId != null) {
            context.forward(new Record<>(runId, RunAlerts.rejected(runId, Instant.ofEpochMilli(record.timestamp()),
                    reason + " (" + meta.topic() + "-" + meta.partition() + "@" + meta.offset() + ")"),
                    record.timestamp()));
        }
    }

    /** Dead-letters the record with {@code reason}; the caller alerts its run as it sees fit. */
    void deadLetter(Record<String, InputEvent> record, RecordMetadata meta, String reason) {
        rejectedSensor.record();
        LOG.warn("dead-lettering {}-{}@{} (run {}): {}", meta.topic(), meta.partition(), meta.offset(),
                record.key() == null ? null : SampleShape.excerpt(record.key()), reason);
        byte[] bytes = switch (record.value()) {
            case InputEvent.Samples s -> EventSerdes.sampleBatch().serialize(meta.topic(), s.batch());
            case InputEvent.Lifecycle l -> EventSerdes.lifecycle().serialize(meta.topic(), l.event());
            case InputEvent.Poison p -> p.bytes();
        };
        context.forward(new Record<String, DerivedEvent>(record.key(), new DerivedEvent.Rejected(bytes),
                record.timestamp(), DeadLetterHeaders.add(new RecordHeaders(), STAGE, reason, meta.topic(),
                meta.partition(), meta.offset())));
    }
}
