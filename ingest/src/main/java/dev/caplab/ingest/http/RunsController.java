package dev.caplab.ingest.http;

import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import dev.caplab.ingest.lifecycle.AnnotationRequest;
import dev.caplab.ingest.lifecycle.LifecycleChecks;
import dev.caplab.ingest.lifecycle.LifecycleEvents;
import dev.caplab.ingest.lifecycle.LifecycleRequest;
import dev.caplab.ingest.lifecycle.RunEndRequest;
import dev.caplab.ingest.lifecycle.RunStartRequest;
import dev.caplab.ingest.lifecycle.StepEndRequest;
import dev.caplab.ingest.lifecycle.StepStartRequest;
import dev.caplab.ingest.parse.SampleChecks;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Run lifecycle over HTTP (the CLI's {@code caplab run start|end} and {@code caplab step}); answers after Kafka's ack. */
@RestController
@Tag(name = "ingest")
@RequiresScope(Scope.WRITE)
class RunsController {

    static final String PATH = "/api/v1/runs";

    private final AckedPublisher publisher;
    private final LifecycleEvents lifecycle;
    private final LifecycleChecks checks;
    private final Clock clock = Clock.systemUTC();

    RunsController(AckedPublisher publisher, LifecycleEvents lifecycle, SampleChecks checks) {
        this.publisher = publisher;
        this.lifecycle = lifecycle;
        this.checks = new LifecycleChecks(checks);
    }

    @PostMapping(PATH)
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(summary = "Start a run", description = "Returns the run id (generated when the body has none).")
    Map<String, String> start(@RequestBody RunStartRequest request) {
        return publish(request, null);
    }

    @PostMapping(PATH + "/{runId}/steps")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(summary = "Start a step at a constant load")
    Map<String, String> startStep(@PathVariable String runId, @RequestBody StepStartRequest request) {
        return publish(request, runId);
    }

    @PostMapping(PATH + "/{runId}/steps/{index}/end")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(summary = "End a step")
    Map<String, String> endStep(@PathVariable String runId, @PathVariable int index) {
        return publish(new StepEndRequest(runId, index, null), runId);
    }

    @PostMapping(PATH + "/{runId}/end")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(summary = "End a run", description = "Body optional: status COMPLETED,"
            + " ABORTED or FAILED, reason, allSamplesSent (true: every sample of the run, from every source, was"
            + " acknowledged before this request, so its last steps close at once instead of after the grace).")
    Map<String, String> end(@PathVariable String runId, @RequestBody(required = false) RunEndRequest request) {
        return publish(request != null ? request : new RunEndRequest(runId, null, null, null, false), runId);
    }

    @PostMapping(PATH + "/{runId}/annotations")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(summary = "Annotate the run's timeline")
    Map<String, String> annotate(@PathVariable String runId, @RequestBody AnnotationRequest request) {
        return publish(request, runId);
    }

    private Map<String, String> publish(LifecycleRequest request, String runId) {
        if (runId != null && request.runId() != null && !runId.equals(request.runId())) {
            throw new dev.caplab.ingest.lifecycle.InvalidLifecycleRequestException(
                    "body runId " + request.runId() + " differs from the path's " + runId);
        }
        SpecificRecord event = lifecycle.toEvent(request, runId);
        checks.check(event, clock.instant());
        publisher.lifecycle(List.of(event));
        return Map.of("runId", event.get(event.getSchema().getField("runId").pos()).toString(),
                "event", event.getSchema().getName());
    }
}
