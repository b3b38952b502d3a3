package dev.caplab.analysis.cliff;

/**
 * Thresholds for calling a step a cliff.
 *
 * @param slopeFactor       a slope after the knee at least this many times the slope before is a cliff (default 3)
 * @param relativeTolerance a measured value must exceed the linear prediction by more than this fraction (default 0.25)
 * @param predictionLevel   level of the prediction interval the measured value is compared with (default 0.95)
 * @param minPriorSteps     steps needed before a step can be judged against their line (default 3: one residual dof)
 * @param existenceAlpha    a segmented knee is a cliff only if Davies' p-value is below this (default 0.05)
 */
public record CliffOptions(double slopeFactor, double relativeTolerance, double predictionLevel, int minPriorSteps,
                           double existenceAlpha) {
    public static final CliffOptions DEFAULT = new CliffOptions(3.0, 0.25, 0.95, 3, 0.05);

    public CliffOptions {
        if (!(slopeFactor > 1)) {
            throw new IllegalArgumentException("slopeFactor must be > 1, got " + slopeFactor);
        }
        if (!(relativeTolerance >= 0)) {
            throw new IllegalArgumentException("relativeTolerance must be >= 0, got " + relativeTolerance);
        }
        if (!(predictionLevel > 0 && predictionLevel < 1)) {
            throw new IllegalArgumentException("predictionLevel must be in (0,1), got " + predictionLevel);
        }
        if (!(existenceAlpha > 0 && existenceAlpha < 1)) {
            throw new IllegalArgumentException("existenceAlpha must be in (0,1), got " + existenceAlpha);
        }
        if (minPriorSteps < 2) {
            throw new IllegalArgumentException("minPriorSteps must be >= 2, got " + minPriorSteps);
        }
    }
}
