package dev.caplab.ingest.http;

import dev.caplab.access.RequiresScope;
import dev.caplab.access.Scope;
import dev.caplab.ingest.lifecycle.AnnotationRequest;
import dev.caplab.ingest.lifecycle.LifecycleChecks;
import dev.caplab.ingest.lifecycle.LifecycleEvents;
import dev.caplab.ingest.lifecycle.LifecycleRequest;
import dev.caplab.ingest.lifecycle.RunDeletedException;
import dev.caplab.ingest.publish.LifecyclePublisher;
import dev.caplab.ingest.lifecycle.RunEndRequest;
import dev.caplab.ingest.lifecycle.RunStartRequest;
import dev.caplab.ingest.lifecycle.StepEndRequest;
import dev.caplab.ingest.lifecycle.StepStartRequest;
import dev.caplab.ingest.lifecycle.UnknownRunException;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.ingest.runs.RunDirectory;
import dev.caplab.ingest.runs.RunGenerations;
import dev.caplab.schema.event.RunDeleted;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Run lifecycle over HTTP (the CLI's {@code caplab run start|end|delete} and {@code caplab step}); answers after
 * Kafka's ack. A run a client deleted takes no more lifecycle events (409 naming the deletion).
 */
@RestController
@Tag(name = "ingest")
@RequiresScope(Scope.WRITE)
class RunsController {

    static final String PATH = "/api/v1/runs";

    private final AckedPublisher publisher;
    private final LifecycleEvents lifecycle;
    private final LifecycleChecks checks;
    private final RunDirectory directory;
    private final Clock clock = Clock.systemUTC();

    RunsController(AckedPublisher publisher, LifecycleEvents lifecycle, SampleChecks checks, RunDirectory directory) {
        this.publisher = publisher;
        this.lifecycle = lifecycle;
        this.checks = new LifecycleChecks(checks);
        this.directory = directory;
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

    @DeleteMapping(PATH + "/{runId}")
    @ResponseStatus(HttpStatus.ACCEPTED)
    @Operation(summary = "Delete a run", description = "Publishes RunDeleted on caplab.runs: once the sink stored it"
            + " (about a second), the run leaves every list, detail, comparison, history, plan and report, and its rows"
            + " leave every table of the store (SQL sees none; deleted_runs keeps the record); its events stay in the"
            + " log, and a rebuild, which replays it, leaves them out again."
            + " Samples sent to its id afterwards begin a new run (<id>.2). 404 for a run never seen, or deleted"
            + " before (then with deletedAt). Query parameter reason: optional free text, kept with the deletion.")
    Map<String, String> delete(@PathVariable String runId, @RequestParam(required = false) String reason) {
        directory.awaitLoaded(RunGenerations.LOAD_WAIT);
        RunDirectory.RunFacts facts = directory.facts(runId).orElseThrow(() -> new UnknownRunException(runId));
        if (facts.deleted()) {
            throw new RunDeletedException(runId, facts.deletedAt());
        }
        RunDeleted event = lifecycle.deletion(runId, reason);
        checks.check(event, clock.instant());
        publisher.lifecycle(List.of(event));
        return Map.of("runId", runId, "event", event.getSchema().getName(),
                "deletedAt", event.getDeletedAt().toString());
    }

    private Map<String, String> publish(LifecycleRequest request, String runId) {
        if (runId != null && request.runId() != null && !runId.equals(request.runId())) {
            throw new dev.caplab.ingest.lifecycle.InvalidLifecycleRequestException(
                    "body runId " + request.runId() + " differs from the path's " + runId);
        }
        SpecificRecord event = lifecycle.toEvent(request, runId);
        checks.check(event, clock.instant());
        String run = LifecyclePublisher.runIdOf(event);
        directory.awaitLoaded(RunGenerations.LOAD_WAIT);
        directory.refuseIfDeleted(run);
        publisher.lifecycle(List.of(event));
        return Map.of("runId", run, "event", event.getSchema().getName());
    }
}
