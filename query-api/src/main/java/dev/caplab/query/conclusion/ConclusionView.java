package dev.caplab.query.conclusion;

import java.time.Instant;
import java.util.List;

/**
 * The run conclusion as streams stored it (analysis {@code Conclusions}): max stable load and the first failing step
 * (contaminated and unjudged steps skipped), the bottleneck and the rule that named it, and per resource its
 * capacity estimate, and the warnings its reader must be told first (no load metric, samples after the end). Every
 * reader of the query API takes these from here; none re-decides.
 */
public record ConclusionView(Double maxStableX, Integer maxStableStepIndex, Double firstFailingX,
                             Integer firstFailingStepIndex, int stepsJudged, int stepsSkipped,
                             BottleneckView bottleneck, double margin, List<EstimateView> resources, boolean runClosed,
                             String model, Instant concludedAt, long version, List<WarningView> warnings) {

    public ConclusionView {
        resources = List.copyOf(resources);
        warnings = List.copyOf(warnings);
    }

    /** A conclusion without warnings. */
    public ConclusionView(Double maxStableX, Integer maxStableStepIndex, Double firstFailingX,
                          Integer firstFailingStepIndex, int stepsJudged, int stepsSkipped, BottleneckView bottleneck,
                          double margin, List<EstimateView> resources, boolean runClosed, String model,
                          Instant concludedAt, long version) {
        this(maxStableX, maxStableStepIndex, firstFailingX, firstFailingStepIndex, stepsJudged, stepsSkipped,
                bottleneck, margin, resources, runClosed, model, concludedAt, version, List.of());
    }

    /** The stored estimate of the bottleneck resource, if the bottleneck has one. */
    public java.util.Optional<EstimateView> bottleneckEstimate() {
        return bottleneck == null ? java.util.Optional.empty() : resources.stream()
                .filter(r -> r.metric().equals(bottleneck.metric()) && r.source().equals(bottleneck.source()))
                .findFirst();
    }
}
