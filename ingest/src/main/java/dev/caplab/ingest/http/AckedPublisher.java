package dev.caplab.ingest.http;

import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.ingest.publish.GroupCommit;
import dev.caplab.ingest.publish.PublishFailedException;
import dev.caplab.ingest.publish.RequestRecords;
import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.ingest.runs.RunGenerations;
import dev.caplab.schema.event.RunOrigin;
import dev.caplab.schema.event.RunStarted;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;

/**
 * Publishes everything one request carries in one Kafka transaction (shared with the requests that arrive beside it,
 * {@link GroupCommit}) and returns once it committed, so an HTTP 2xx means all of it is in Kafka and a 5xx means none
 * of it is visible to caplab's (read_committed) consumers: a retry never duplicates. A broker failure becomes
 * {@link KafkaUnavailableException} (503). Samples go to the run {@link RunGenerations} places them in (a new run after
 * an idle end, late data in an ended one); where they went is the request's {@link WriteAnswer}, set on its response.
 */
public final class AckedPublisher {

    private final GroupCommit publisher;
    private final IngestLimits limits;
    private final Clock clock;
    private final RunGenerations generations;

    public AckedPublisher(GroupCommit publisher, IngestLimits limits, Clock clock, RunGenerations generations) {
        this.publisher = publisher;
        this.limits = limits;
        this.clock = clock;
        this.generations = generations;
    }

    WriteAnswer samples(RoutedSamples routed, String adapter) {
        return publish(List.of(), routed, adapter);
    }

    WriteAnswer lifecycle(List<SpecificRecord> events) {
        return publish(events, new RoutedSamples.Builder().build(), "lifecycle");
    }

    /**
     * Lifecycle events first, then samples, each in the run it belongs to, all in one transaction; the answer is
     * also set on the current response's headers.
     */
    WriteAnswer publish(List<SpecificRecord> events, RoutedSamples routed, String adapter) {
        Set<String> declaredHere = events.stream()
                .filter(e -> e instanceof RunStarted r && r.getOrigin() != RunOrigin.INFERRED)
                .map(e -> ((RunStarted) e).getRunId().toString()).collect(Collectors.toSet());
        RunGenerations.Routing routing = generations.route(routed, declaredHere);
        RequestRecords records = new RequestRecords(limits, clock.instant()).lifecycle(events)
                .samples(routing.routed(), adapter);
        try {
            publisher.publish(records.records(), records.describe());
        } catch (PublishFailedException e) {
            throw new KafkaUnavailableException(e.getMessage(), e);
        }
        WriteAnswer answer = WriteAnswer.of(routing.landings(), events.size());
        answer.toCurrentResponse();
        return answer;
    }

    /** Kafka did not take the data; nothing was acknowledged to the client. */
    public static final class KafkaUnavailableException extends RuntimeException {
        KafkaUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
