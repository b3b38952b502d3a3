package dev.caplab.analysis.cliff;

/**
 * What the line through the earlier steps predicted at a step versus what was measured there,
 * e.g. predicted 51 % (28–74 %) but measured 88–103 %.
 *
 * @param predictedLower lower end of the prediction interval (NaN without residual dof)
 * @param measuredMean   the step's sustained value (mean of its samples)
 * @param measuredMin    smallest sample in the step
 * @param measuredMax    largest sample in the step
 */
public record ExtrapolationError(int stepIndex, double x, double predicted, double predictedLower, double predictedUpper,
                                 double measuredMean, double measuredMin, double measuredMax) {
    public ExtrapolationError {
        if (!Double.isFinite(predicted) || !Double.isFinite(measuredMean)) {
            throw new IllegalArgumentException("step " + stepIndex + ": predicted and measured must be finite");
        }
    }

    /** measured − predicted, in the resource's unit. */
    public double excess() {
        return measuredMean - predicted;
    }

    /** measured / predicted − 1 (relative error of the extrapolation). */
    public double relativeExcess() {
        return measuredMean / predicted - 1;
    }
}
