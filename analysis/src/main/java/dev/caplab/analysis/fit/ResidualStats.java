package dev.caplab.analysis.fit;

/**
 * Residual summary of a fit: weighted residual sum of squares, residual standard error
 * σ̂ = √(RSS/(n−p)), degrees of freedom n−p, and the largest absolute residual.
 */
public record ResidualStats(double rss, double residualStdErr, int degreesOfFreedom, double maxAbsResidual) {
    public ResidualStats {
        if (rss < 0 || degreesOfFreedom < 0) {
            throw new IllegalArgumentException("invalid residual stats: rss=" + rss + " dof=" + degreesOfFreedom);
        }
    }
}
