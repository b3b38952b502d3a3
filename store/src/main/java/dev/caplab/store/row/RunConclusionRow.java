package dev.caplab.store.row;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A row of {@code run_conclusions}: one RunConclusion. The bottleneck columns are all null or all set;
 * {@code resources} is the per-resource estimates (typed tuples) and {@code warningsJson} the warnings
 * ({@code RunWarning}, kind and message) as a JSON array. The highest version wins.
 * {@code rulesFrom} says where the rules the steps were judged against came from ({@code run}, {@code default},
 * {@code none}); null in rows written before it was kept. {@code throughputLimit} is null when the request rate
 * never stopped growing, {@code egressCeiling} when the run has none (both also in rows written before they were
 * kept).
 */
public record RunConclusionRow(String runId, Double maxStableX, Integer maxStableStepIndex, Double firstFailingX,
                               Integer firstFailingStepIndex, int stepsJudged, int stepsSkipped,
                               String bottleneckSource, String bottleneckMetric, String bottleneckRule,
                               Double bottleneckValue, Integer bottleneckStepIndex, double margin,
                               List<ResourceEstimateValue> resources, boolean runClosed, String model, Instant concludedAt,
                               long version, String warningsJson, String rulesFrom,
                               @Flattened(prefix = "throughput_") ThroughputLimitValue throughputLimit,
                               @Flattened(prefix = "egress_ceiling_") EgressCeilingValue egressCeiling)
        implements RunScopedRow {

    public RunConclusionRow {
        Checks.text(runId, "runId");
        Checks.nonNegative(stepsJudged, "stepsJudged");
        Checks.nonNegative(stepsSkipped, "stepsSkipped");
        if ((bottleneckMetric == null) != (bottleneckRule == null) || (bottleneckMetric == null) != (bottleneckSource == null)) {
            throw new IllegalArgumentException("run " + runId + ": bottleneck source, metric and rule go together, got "
                    + bottleneckSource + "/" + bottleneckMetric + "/" + bottleneckRule);
        }
        if (!(margin > 0 && margin <= 1)) {
            throw new IllegalArgumentException("margin must be in (0, 1], was " + margin);
        }
        resources = List.copyOf(resources);
        Checks.text(model, "model");
        Checks.storable(Objects.requireNonNull(concludedAt, "concludedAt"), "concludedAt");
        Checks.nonNegative(version, "version");
        Objects.requireNonNull(warningsJson, "warningsJson");
    }

    /** A conclusion without a throughput limit and without an egress ceiling. */
    public RunConclusionRow(String runId, Double maxStableX, Integer maxStableStepIndex, Double firstFailingX,
            Integer firstFailingStepIndex, int stepsJudged, int stepsSkipped, String bottleneckSource,
            String bottleneckMetric, String bottleneckRule, Double bottleneckValue, Integer bottleneckStepIndex,
            double margin, List<ResourceEstimateValue> resources, boolean runClosed, String model, Instant concludedAt, long version,
            String warningsJson, String rulesFrom) {
        this(runId, maxStableX, maxStableStepIndex, firstFailingX, firstFailingStepIndex, stepsJudged, stepsSkipped,
                bottleneckSource, bottleneckMetric, bottleneckRule, bottleneckValue, bottleneckStepIndex, margin,
                resources, runClosed, model, concludedAt, version, warningsJson, rulesFrom, null, null);
    }

    /** This conclusion with {@code limit} as its throughput limit. */
    public RunConclusionRow withThroughputLimit(ThroughputLimitValue limit) {
        return new RunConclusionRow(runId, maxStableX, maxStableStepIndex, firstFailingX, firstFailingStepIndex,
                stepsJudged, stepsSkipped, bottleneckSource, bottleneckMetric, bottleneckRule, bottleneckValue,
                bottleneckStepIndex, margin, resources, runClosed, model, concludedAt, version, warningsJson,
                rulesFrom, limit, egressCeiling);
    }

    /** This conclusion with {@code ceiling} as its egress ceiling. */
    public RunConclusionRow withEgressCeiling(EgressCeilingValue ceiling) {
        return new RunConclusionRow(runId, maxStableX, maxStableStepIndex, firstFailingX, firstFailingStepIndex,
                stepsJudged, stepsSkipped, bottleneckSource, bottleneckMetric, bottleneckRule, bottleneckValue,
                bottleneckStepIndex, margin, resources, runClosed, model, concludedAt, version, warningsJson,
                rulesFrom, throughputLimit, ceiling);
    }

    /** A row without warnings. */
    public RunConclusionRow(String runId, Double maxStableX, Integer maxStableStepIndex, Double firstFailingX,
                            Integer firstFailingStepIndex, int stepsJudged, int stepsSkipped,
                            String bottleneckSource, String bottleneckMetric, String bottleneckRule,
                            Double bottleneckValue, Integer bottleneckStepIndex, double margin,
                            List<ResourceEstimateValue> resources, boolean runClosed, String model, Instant concludedAt,
                            long version) {
        this(runId, maxStableX, maxStableStepIndex, firstFailingX, firstFailingStepIndex, stepsJudged, stepsSkipped,
                bottleneckSource, bottleneckMetric, bottleneckRule, bottleneckValue, bottleneckStepIndex, margin,
                resources, runClosed, model, concludedAt, version, "[]", null, null, null);
    }

    /** A conclusion that does not say where its rules came from. */
    public RunConclusionRow(String runId, Double maxStableX, Integer maxStableStepIndex, Double firstFailingX,
            Integer firstFailingStepIndex, int stepsJudged, int stepsSkipped, String bottleneckSource,
            String bottleneckMetric, String bottleneckRule, Double bottleneckValue, Integer bottleneckStepIndex,
            double margin, List<ResourceEstimateValue> resources, boolean runClosed, String model, Instant concludedAt, long version,
            String warningsJson) {
        this(runId, maxStableX, maxStableStepIndex, firstFailingX, firstFailingStepIndex, stepsJudged, stepsSkipped,
                bottleneckSource, bottleneckMetric, bottleneckRule, bottleneckValue, bottleneckStepIndex, margin,
                resources, runClosed, model, concludedAt, version, warningsJson, null, null, null);
    }
}
