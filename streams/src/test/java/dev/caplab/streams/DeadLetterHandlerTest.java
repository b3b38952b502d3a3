package dev.caplab.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.DeadLetterHeaders;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.schema.vocabulary.InputAlerts;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

/** A failed send resumes with a dead letter (value left out when too large to send) and an alert for its run. */
class DeadLetterHandlerTest {

    /** Where the failing record came from, as Streams hands it to the handler. */
    private record Context(String topic, int partition, long offset, Headers headers, String processorNodeId,
                           TaskId taskId, long timestamp, byte[] sourceRawKey, byte[] sourceRawValue)
            implements ErrorHandlerContext {
    }

    @Test
    void aChangelogRecordTooLargeIsDeadLetteredWithoutItsValueAndItsRunAlerted() {
        Context input = new Context(TopicCatalog.SAMPLES, 2, 41, new RecordHeaders(), "caplab-run-processor",
                new TaskId(0, 2), 1_000, bytes("run-1"), new byte[10]);
        byte[] huge = new byte[2 * 1024 * 1024];
        ProductionExceptionHandler.Response r = new DeadLetterHandler().handleError(input, new ProducerRecord<>(
                "caplab-streams-caplab-sample-buckets-changelog", 2, bytes("run-1\u00010000000001\u00012:41"), huge),
                new RecordTooLargeException("too large"));

        assertThat(r.result()).isEqualTo(ProductionExceptionHandler.Result.RESUME);
        List<ProducerRecord<byte[], byte[]>> out = r.deadLetterQueueRecords();
        assertThat(out).hasSize(2);
        ProducerRecord<byte[], byte[]> dead = out.getFirst();
        assertThat(dead.topic()).isEqualTo(TopicCatalog.DEAD_LETTER);
        assertThat(dead.value()).as("2 MiB is what could not be sent").isNull();
        assertThat(new String(dead.headers().lastHeader(DeadLetterHeaders.REASON).value(), StandardCharsets.UTF_8))
                .contains("RecordTooLargeException").contains("sample-buckets-changelog");
        Alert alert = EventSerdes.alert().deserialize(TopicCatalog.ALERTS, out.get(1).value());
        assertThat(out.get(1).topic()).isEqualTo(TopicCatalog.ALERTS);
        assertThat(alert.getRunId()).isEqualTo("run-1");
        assertThat(alert.getMessage()).startsWith(InputAlerts.REJECTED);
    }

    @Test
    void aFailedSendToTheDeadLetterTopicItselfIsNotDeadLetteredAgain() {
        Context input = new Context(TopicCatalog.SAMPLES, 0, 1, new RecordHeaders(), "n", new TaskId(0, 0), 1,
                bytes("run-1"), new byte[1]);
        ProductionExceptionHandler.Response r = new DeadLetterHandler().handleError(input,
                new ProducerRecord<>(TopicCatalog.DEAD_LETTER, bytes("run-1"), new byte[1]),
                new RecordTooLargeException("too large"));
        assertThat(r.result()).isEqualTo(ProductionExceptionHandler.Result.RESUME);
        assertThat(r.deadLetterQueueRecords()).isEmpty();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
