package dev.caplab.query.compare;

/**
 * One measured run in a comparison: its group (provider or tier), environment, max stable load and failing load,
 * the chosen resource's below-knee base and slope, the knee, whether a cliff was seen, the bottleneck (metric, source
 * and the rule that named it) and its safe capacity at the margin — these last from the run conclusion — and the
 * highest load the run tested ({@code testedToX}): a safe capacity beyond it is the line extrapolated, not measured.
 */
public record ComparisonRow(String group, String runId, String sutName, String provider, String region, String tier,
                            String instanceType, Double vcpu, Long memoryBytes, Double nominalEgressMbps,
                            Double measuredEgressMbps, String loadExpression, Double maxStableX, Double failedX,
                            String metric, Double baseline, Double slopePerX, Double kneeX, boolean cliff,
                            String bottleneck, String bottleneckSource, String bottleneckRule,
                            Double safeCapacityX, Double testedToX) {
}
