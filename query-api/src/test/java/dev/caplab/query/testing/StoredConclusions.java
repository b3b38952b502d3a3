package dev.caplab.query.testing;

import dev.caplab.schema.event.BottleneckRule;
import dev.caplab.schema.event.RunBottleneck;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.schema.serde.AvroTrust;
import dev.caplab.sink.RowMapping;
import java.time.Instant;
import java.util.List;

/**
 * Run conclusions as the sink stores them, for fixtures: the estimates as the sink maps them, each safe capacity
 * worked out here from the line with the report's formula x = (C·margin − base)/slope, capped at the last stable x
 * past a cliff.
 */
public final class StoredConclusions {

    public static final double MARGIN = 0.6;

    static {
        AvroTrust.install(); // a conclusion built here defaults to event classes Avro checks by name
    }

    private StoredConclusions() {
    }

    /** A resource's pre-knee line over [fromX, toX] with a slope SE, its ceiling, and the cliff's last stable x or null. */
    public static ResourceEstimate estimate(String source, String metric, double base, double slope, double slopeStdErr,
                                            int steps, double fromX, double toX, double ceiling, Double lastStableX) {
        double xMax = (ceiling * MARGIN - base) / slope;
        boolean capped = lastStableX != null && xMax >= lastStableX;
        return ResourceEstimate.newBuilder().setSource(source).setMetric(metric).setIntercept(base).setSlope(slope)
                .setSlopeVariance(slopeStdErr * slopeStdErr).setDegreesOfFreedom(steps - 2).setPreKneeSteps(steps)
                .setFromX(fromX).setToX(toX).setCeiling(ceiling).setSafeCapacityX(capped ? lastStableX : xMax)
                .setCappedByCliff(capped).setCliff(lastStableX != null).setLastStableX(lastStableX).build();
    }

    /** A conclusion whose bottleneck is the fitted resource with the smallest safe capacity, or none. */
    public static RunConclusion row(String runId, Double maxStableX, Integer maxStableStep, Double failedX,
                                    Integer failedStep, int steps, ResourceEstimate bottleneck,
                                    List<ResourceEstimate> resources, Instant at) {
        return RowMapping.conclusion(RunConclusion.newBuilder().setRunId(runId).setMaxStableX(maxStableX)
                .setMaxStableStepIndex(maxStableStep).setFirstFailingX(failedX).setFirstFailingStepIndex(failedStep)
                .setStepsJudged(steps).setStepsSkipped(0)
                .setBottleneck(bottleneck == null ? null : RunBottleneck.newBuilder().setSource(bottleneck.getSource())
                        .setMetric(bottleneck.getMetric()).setRule(BottleneckRule.SMALLEST_SAFE_CAPACITY)
                        .setValue(bottleneck.getSafeCapacityX()).build())
                .setMargin(MARGIN).setResources(resources).setRunClosed(true).setModel("caplab-run-conclusion/1")
                .setConcludedAt(at).setVersion(1).build());
    }
}
