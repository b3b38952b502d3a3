package dev.caplab.query.conclusion;

import java.time.Instant;
import java.util.List;

/**
 * The run conclusion as streams stored it (analysis {@code Conclusions}): max stable load and the first failing step
 * (contaminated and unjudged steps skipped), the bottleneck and the rule that named it, and per resource its
 * capacity estimate. Every reader of the query API takes these from here; none re-decides.
 */
public record ConclusionView(Double maxStableX, Integer maxStableStepIndex, Double firstFailingX,
                             Integer firstFailingStepIndex, int stepsJudged, int stepsSkipped,
                             BottleneckView bottleneck, double margin, List<EstimateView> resources, boolean runClosed,
                             String model, Instant concludedAt, long version) {

    public ConclusionView {
        resources = List.copyOf(resources);
    }

    /** The stored estimate of the bottleneck resource, if the bottleneck has one. */
    public java.util.Optional<EstimateView> bottleneckEstimate() {
        return bottleneck == null ? java.util.Optional.empty() : resources.stream()
                .filter(r -> r.metric().equals(bottleneck.metric()) && r.source().equals(bottleneck.source()))
                .findFirst();
    }
}
