package dev.caplab.ingest.http;

import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import dev.caplab.ingest.lifecycle.InvalidLifecycleRequestException;
import dev.caplab.ingest.lifecycle.LifecycleEvents;
import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.schema.event.Sample;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Generic JSON events API for custom clients: lifecycle events and samples in one batch. */
@RestController
@Tag(name = "ingest")
class EventsController {

    static final String PATH = "/api/v1/events";

    private final AckedPublisher publisher;
    private final LifecycleEvents lifecycle;

    EventsController(AckedPublisher publisher, LifecycleEvents lifecycle) {
        this.publisher = publisher;
        this.lifecycle = lifecycle;
    }

    @PostMapping(PATH)
    @RequiresScope(Scope.WRITE)
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(summary = "Publish a batch of lifecycle events and samples",
            description = "The whole batch is validated first; nothing is published when any item is invalid. "
                    + "202 means Kafka acknowledged every item.")
    @ApiResponse(responseCode = "202", description = "every event and sample acknowledged by Kafka")
    @ApiResponse(responseCode = "400", description = "an item is invalid; nothing was published")
    Map<String, Object> publish(@RequestBody EventsRequest request) {
        List<SpecificRecord> events = request.events().stream()
                .map(e -> lifecycle.toEvent(e, request.runId()))
                .toList();
        RoutedSamples.Builder samples = new RoutedSamples.Builder();
        for (SampleRequest s : request.samples()) {
            String run = s.runId() != null ? s.runId() : request.runId();
            if (run == null || run.isBlank()) {
                throw new InvalidLifecycleRequestException("sample of " + s.metric() + ": runId is required");
            }
            samples.add(run, new Sample(s.timestamp().truncatedTo(java.time.temporal.ChronoUnit.MICROS), s.source(),
                    s.metric(), s.kind(), s.value(), s.labels(), null));
        }
        RoutedSamples routed = samples.build();
        publisher.lifecycle(events);
        publisher.samples(routed, request.adapter());
        return Map.of("events", events.size(), "samples", routed.sampleCount());
    }
}
