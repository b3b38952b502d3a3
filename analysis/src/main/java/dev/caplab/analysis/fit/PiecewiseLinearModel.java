package dev.caplab.analysis.fit;

/** A candidate model of y against x that {@link ModelSelection} compares by BIC (Linear, Segmented). */
public interface PiecewiseLinearModel {
    /** Stable name written into every result, e.g. {@code linear}, {@code segmented-1}. */
    String modelName();

    /** Number of breakpoints the model places (0 for a line). */
    int breakpointCount();

    /** Number of estimated mean parameters p (2 + 2·breakpoints: intercept, slope, slope changes, ψ). */
    default int parameterCount() {
        return 2 + 2 * breakpointCount();
    }

    /** Fewest steps the model needs to be fitted with at least two residual degrees of freedom. */
    default int minimumSteps() {
        return parameterCount() + 2;
    }

    /** Whether {@code series} has enough steps for this model. */
    default boolean eligible(StepSeries series) {
        return series.size() >= minimumSteps();
    }

    /**
     * Fits the model by weighted least squares.
     *
     * @throws dev.caplab.analysis.InsufficientDataException when the series is too short
     * @throws dev.caplab.analysis.FitFailedException when the optimiser fails
     */
    ModelFit fit(StepSeries series);
}
