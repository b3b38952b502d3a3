package dev.caplab.ingest.http;

import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import dev.caplab.ingest.lifecycle.InvalidLifecycleRequestException;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.lifecycle.LifecycleEvents;
import dev.caplab.ingest.publish.LifecyclePublisher;
import dev.caplab.ingest.runs.RunDirectory;
import dev.caplab.ingest.runs.RunGenerations;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Clock;
import java.util.Map;
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
    private final RunDirectory directory;
    private final Clock clock = Clock.systemUTC();

    EventsController(AckedPublisher publisher, LifecycleEvents lifecycle, SampleChecks checks,
            RunDirectory directory) {
        this.publisher = publisher;
        this.lifecycle = lifecycle;
        this.checks = checks;
        this.directory = directory;
    }

    @PostMapping(PATH)
    @RequiresScope(Scope.WRITE)
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(summary = "Publish a batch of lifecycle events and samples",
            description = "The whole batch is validated first; nothing is published when any item is invalid. "
                    + "202 means Kafka committed every item, in one transaction.")
    @ApiResponse(responseCode = "202", description = "every event and sample committed to Kafka")
    @ApiResponse(responseCode = "400", description = "an item is invalid (named by its index and field); nothing "
            + "was published")
    @ApiResponse(responseCode = "409", description = "a lifecycle event names a run a client deleted (problem type "
            + "run-deleted, with deletedAt); nothing was published")
    @ApiResponse(responseCode = "413", description = "too many samples; nothing was published")
    @ApiResponse(responseCode = "503", description = "Kafka did not commit; nothing was published, retry")
    Map<String, Object> publish(@RequestBody EventsRequest request) {
        EventsBatch batch = EventsBatch.of(request, lifecycle, checks, clock.instant());
        directory.awaitLoaded(RunGenerations.LOAD_WAIT);
        batch.events().forEach(event -> directory.refuseIfDeleted(LifecyclePublisher.runIdOf(event)));
        WriteAnswer answer = publisher.publish(batch.events(), batch.samples(), request.adapter());
        Map<String, Object> body = new java.util.LinkedHashMap<>();
        body.put("events", batch.events().size());
        body.put("samples", batch.samples().sampleCount());
        body.putAll(answer.json());
        return body;
    }
}
