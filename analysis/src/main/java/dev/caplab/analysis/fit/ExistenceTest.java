package dev.caplab.analysis.fit;

/**
 * Result of testing H₀ "no breakpoint" against "at least one": the sup |t| statistic, where on the
 * grid it was attained, and the Davies upper-bound p-value (capped at 1).
 */
public record ExistenceTest(String method, double statistic, double bestBreakpointX, double pValue, int gridPoints) {
    public ExistenceTest {
        if (!(pValue >= 0 && pValue <= 1)) {
            throw new IllegalArgumentException(method + ": p-value outside [0,1]: " + pValue);
        }
    }
}
