package dev.caplab.query.conclusion;

import dev.caplab.analysis.capacity.ResourceEstimate;
import dev.caplab.analysis.fit.LinearFit;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * One resource's stored capacity estimate: the pre-knee line y = intercept + slope·x with its variances and
 * covariance (null when unknown), the x range it was fitted on, the ceiling, the safe capacity x at the run's margin
 * with its SE and 95 % interval, the knee and cliff, and the source's role ({@code sut} or {@code host}; null when
 * the conclusion predates roles).
 */
public record EstimateView(String source, String metric, double intercept, double slope, Double interceptVariance,
                           Double slopeVariance, Double covariance, Double residualStdErr, int degreesOfFreedom,
                           int preKneeSteps, Double rSquared, double fromX, double toX, Double ceiling,
                           Double safeCapacityX, Double safeCapacityStdErr, Double safeCapacityLower95,
                           Double safeCapacityUpper95, boolean cappedByCliff, Double kneeX, boolean cliff,
                           Integer cliffStepIndex, Double lastStableX, String role) {

    /** The view of an estimate as the run conclusion carries it. */
    static EstimateView of(dev.caplab.schema.event.ResourceEstimate e) {
        return new EstimateView(e.getSource().toString(), e.getMetric().toString(), e.getIntercept(), e.getSlope(),
                e.getInterceptVariance(), e.getSlopeVariance(), e.getCovariance(), e.getResidualStdErr(),
                e.getDegreesOfFreedom(), e.getPreKneeSteps(), e.getRSquared(), e.getFromX(), e.getToX(),
                e.getCeiling(), e.getSafeCapacityX(), e.getSafeCapacityStdErr(), e.getSafeCapacityLower95(),
                e.getSafeCapacityUpper95(), e.getCappedByCliff(), e.getKneeX(), e.getCliff(), e.getCliffStepIndex(),
                e.getLastStableX(), e.getRole() == null ? null : e.getRole().toString());
    }

    /** The analysis' estimate this view stores, for a plan at another margin. */
    public ResourceEstimate toEstimate() {
        LinearFit line = new LinearFit(intercept, slope, nan(interceptVariance), nan(slopeVariance), nan(covariance),
                nan(residualStdErr), degreesOfFreedom, preKneeSteps, nan(rSquared));
        return new ResourceEstimate(source, metric, line, fromX, toX, optional(ceiling), optional(kneeX), cliff,
                cliffStepIndex == null ? OptionalInt.empty() : OptionalInt.of(cliffStepIndex), optional(lastStableX));
    }

    private static double nan(Double v) {
        return v == null ? Double.NaN : v;
    }

    private static OptionalDouble optional(Double v) {
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }
}
