package dev.caplab.store.row;

import java.util.Objects;

/**
 * One resource's capacity estimate as the run conclusion stores it (analysis {@code Conclusions}, Avro
 * {@code ResourceEstimate}): the pre-knee line y = intercept + slope·x with its variances and covariance (null when
 * unknown), the x range it was fitted on, the ceiling, the safe capacity x at the run's margin with its SE and 95 %
 * interval, the knee and cliff, and the source's role ({@code sut} or {@code host}; null when the conclusion predates
 * roles). One tuple of {@code run_conclusions.resources}; the query API shows it as it is.
 */
public record ResourceEstimateValue(String source, String metric, double intercept, double slope,
                                    Double interceptVariance, Double slopeVariance, Double covariance,
                                    Double residualStdErr, int degreesOfFreedom, int preKneeSteps, Double rSquared,
                                    double fromX, double toX, Double ceiling, Double safeCapacityX,
                                    Double safeCapacityStdErr, Double safeCapacityLower95, Double safeCapacityUpper95,
                                    boolean cappedByCliff, Double kneeX, boolean cliff, Integer cliffStepIndex,
                                    Double lastStableX, String role) {

    public ResourceEstimateValue {
        Objects.requireNonNull(source, "source");
        Checks.text(metric, "metric");
    }
}
