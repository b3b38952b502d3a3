package dev.caplab.analysis.fit;

/** How collapsed steps are weighted in the least-squares fit. */
public enum StepWeighting {
    /**
     * Every step counts once (default). Samples within a step are autocorrelated, so a step with
     * 1,000 samples is not 100 times more informative than one with 10; each step's sustained mean
     * is one observation.
     */
    EQUAL_PER_STEP,
    /**
     * Each step is weighted by its sample count. Coefficients then equal an ordinary fit of the raw
     * samples (weighted least squares of group means with weights n_i).
     */
    BY_SAMPLE_COUNT
}
