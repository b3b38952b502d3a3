package dev.caplab.query.history;

import java.util.Map;

/**
 * What one run concluded, as far as its history needs it: the resource that binds first, the max stable load, the
 * throughput limit's x as the conclusion stored it and, per fitted resource, the pre-knee slope and the knee. Null
 * values mean the run did not conclude that (no passing step, no breakpoint found, a request rate that never stopped
 * growing).
 */
public record RunMetrics(String runId, String bottleneck, Double maxStableX, Double throughputLimitX,
                         Map<String, ResourceLine> resources) {

    public RunMetrics {
        resources = Map.copyOf(resources);
    }

    /** A resource fitted against load: the slope below the knee (resource units per x) and the knee's x. */
    public record ResourceLine(Double slopePerX, Double kneeX) {
    }
}
