package dev.caplab.query.throughput;

import java.time.Instant;

/**
 * The run's throughput limit: the load x where the request rate stopped growing (the knee of its segmented fit) with
 * its 95 % interval, the rate there, the slopes either side, Davies' p-value, and — when the load generator's CPU was
 * sampled — whether the generator was saturated at or after the knee ({@code generatorLimited}, at x
 * {@code generatorSaturatedAtX} with {@code generatorCpuPercent}): then the plateau is the tool's, not the server's.
 */
public record ThroughputLimitView(String loadExpression, double kneeX, double kneeLower95, double kneeUpper95,
                                  double plateauRatePerSecond, double slopeBeforePerX, double slopeAfterPerX,
                                  double breakpointPValue, int stepsUsed, boolean generatorLimited,
                                  Double generatorSaturatedAtX, Double generatorCpuPercent, Instant fittedAt) {
}
