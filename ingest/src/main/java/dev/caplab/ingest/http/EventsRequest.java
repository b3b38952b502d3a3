package dev.caplab.ingest.http;

import dev.caplab.ingest.lifecycle.LifecycleRequest;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * A batch for {@code POST /api/v1/events}: lifecycle events and samples of custom clients (e.g. a WebRTC load
 * generator). {@code runId} applies to every item that names none.
 */
@Schema(description = "A batch of lifecycle events and samples; runId is the default for items without one")
public record EventsRequest(
        @Schema(description = "default run id of the batch") String runId,
        @Schema(description = "name of the producing client, stored as the batch's adapter", example = "webrtc-loadgen")
        String adapter,
        @Schema(description = "lifecycle events, each with a type: run_started, step_started, step_ended, run_ended, "
                + "annotation") List<LifecycleRequest> events,
        List<SampleRequest> samples) {

    public EventsRequest {
        events = events == null ? List.of() : List.copyOf(events);
        samples = samples == null ? List.of() : List.copyOf(samples);
        adapter = adapter == null || adapter.isBlank() ? "events-api" : adapter;
    }
}
