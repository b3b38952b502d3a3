package dev.caplab.ingest.http;

import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.ingest.publish.GroupCommit;
import dev.caplab.ingest.publish.PublishFailedException;
import dev.caplab.ingest.publish.RequestRecords;
import dev.caplab.ingest.publish.RoutedSamples;
import java.time.Clock;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * Publishes everything one request carries in one Kafka transaction (shared with the requests that arrive beside it,
 * {@link GroupCommit}) and returns once it committed, so an HTTP 2xx means all of it is in Kafka and a 5xx means none
 * of it is visible to caplab's (read_committed) consumers: a retry never duplicates. A broker failure becomes
 * {@link KafkaUnavailableException} (503).
 */
public final class AckedPublisher {

    private final GroupCommit publisher;
    private final IngestLimits limits;
    private final Clock clock;

    public AckedPublisher(GroupCommit publisher, IngestLimits limits, Clock clock) {
        this.publisher = publisher;
        this.limits = limits;
        this.clock = clock;
    }

    public void samples(RoutedSamples routed, String adapter) {
        publish(List.of(), routed, adapter);
    }

    public void lifecycle(List<SpecificRecord> events) {
        publish(events, new RoutedSamples.Builder().build(), "lifecycle");
    }

    /** Lifecycle events first, then samples, all in one transaction. */
    public void publish(List<SpecificRecord> events, RoutedSamples routed, String adapter) {
        RequestRecords records = new RequestRecords(limits, clock.instant()).lifecycle(events)
                .samples(routed, adapter);
        try {
            publisher.publish(records.records(), records.describe());
        } catch (PublishFailedException e) {
            throw new KafkaUnavailableException(e.getMessage(), e);
        }
    }

    /** Kafka did not take the data; nothing was acknowledged to the client. */
    public static final class KafkaUnavailableException extends RuntimeException {
        KafkaUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
