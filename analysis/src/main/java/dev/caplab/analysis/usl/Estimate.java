package dev.caplab.analysis.usl;

/** A parameter estimate with its standard error and 95 % interval value ± t(0.975, n−3)·SE. */
public record Estimate(double value, double stdErr, double lower95, double upper95) {
    public Estimate {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("estimate must be finite, got " + value);
        }
    }
}
