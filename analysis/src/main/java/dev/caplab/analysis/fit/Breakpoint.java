package dev.caplab.analysis.fit;

/**
 * A fitted breakpoint ψ with its standard error and 95 % interval ψ ± t(0.975, n−p)·SE
 * (the "delta" interval of R {@code segmented::confint.segmented}, Muggeo 2003).
 */
public record Breakpoint(double x, double stdErr, double lower95, double upper95) {
    public Breakpoint {
        if (!Double.isFinite(x)) {
            throw new IllegalArgumentException("breakpoint x must be finite, got " + x);
        }
        if (lower95 > upper95) {
            throw new IllegalArgumentException("breakpoint interval inverted: " + lower95 + " > " + upper95);
        }
    }
}
