package dev.caplab.ingest.http;

import dev.caplab.ingest.lifecycle.InvalidLifecycleRequestException;
import dev.caplab.ingest.lifecycle.LifecycleChecks;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.parse.SampleChecks.LimitException;
import dev.caplab.ingest.lifecycle.LifecycleEvents;
import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.schema.event.Sample;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
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
    private final SampleChecks checks;
    private final LifecycleChecks lifecycleChecks;
    private final Clock clock = Clock.systemUTC();

    EventsController(AckedPublisher publisher, LifecycleEvents lifecycle, SampleChecks checks) {
        this.publisher = publisher;
        this.lifecycle = lifecycle;
        this.checks = checks;
        this.lifecycleChecks = new LifecycleChecks(checks);
    }

    @PostMapping(PATH)
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(summary = "Publish a batch of lifecycle events and samples",
            description = "The whole batch is validated first; nothing is published when any item is invalid. "
                    + "202 means Kafka committed every item, in one transaction.")
    @ApiResponse(responseCode = "202", description = "every event and sample committed to Kafka")
    @ApiResponse(responseCode = "400", description = "an item is invalid (named by its index and field); nothing "
            + "was published")
    @ApiResponse(responseCode = "413", description = "too many samples; nothing was published")
    @ApiResponse(responseCode = "503", description = "Kafka did not commit; nothing was published, retry")
    Map<String, Object> publish(@RequestBody EventsRequest request) {
        Instant now = clock.instant();
        List<SpecificRecord> events = new ArrayList<>();
        for (int i = 0; i < request.events().size(); i++) {
            SpecificRecord event = lifecycle.toEvent(request.events().get(i), request.runId());
            try {
                lifecycleChecks.check(event, now);
            } catch (LimitException e) {
                throw invalid("events[" + i + "]", e);
            }
            events.add(event);
        }
        RoutedSamples.Builder samples = new RoutedSamples.Builder(checks.limits().maxSamplesPerRequest());
        for (int i = 0; i < request.samples().size(); i++) {
            SampleRequest s = request.samples().get(i);
            String run = s.runId() != null ? s.runId() : request.runId();
            Sample sample = new Sample(s.timestamp().truncatedTo(ChronoUnit.MICROS), s.source(), s.metric(),
                    s.kind(), s.value(), s.labels(), null);
            try {
                checks.check(run, sample, now);
            } catch (LimitException e) {
                throw invalid("samples[" + i + "]", e);
            }
            samples.add(run, sample);
        }
        RoutedSamples routed = samples.build();
        publisher.publish(events, routed, request.adapter());
        return Map.of("events", events.size(), "samples", routed.sampleCount());
    }

    private static InvalidLifecycleRequestException invalid(String item, LimitException e) {
        return new InvalidLifecycleRequestException(item + (e.field() == null ? "" : "." + e.field()) + ": "
                + e.reason() + "; nothing was published");
    }
}
