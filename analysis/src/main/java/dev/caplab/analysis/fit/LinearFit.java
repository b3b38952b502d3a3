package dev.caplab.analysis.fit;

import dev.caplab.analysis.Finite;
/**
 * A weighted least-squares line y = base + slope·x with the coefficient covariance, so that
 * confidence and prediction intervals can be computed anywhere (Draper &amp; Smith, Applied
 * Regression Analysis, §1.4 and §3.2).
 */
public record LinearFit(double base, double slope, double baseVariance, double slopeVariance, double covariance,
                        double residualStdErr, int degreesOfFreedom, int stepCount, double rSquared) {
    public LinearFit {
        if (!Double.isFinite(base) || !Double.isFinite(slope)) {
            throw new IllegalArgumentException("line coefficients must be finite: base=" + base + " slope=" + slope);
        }
        if (stepCount < 2) {
            throw new IllegalArgumentException("a line needs at least 2 steps, got " + stepCount);
        }
    }

    /**
     * A line read back from a stored record, whose unknown figures (a variance without residual degrees of freedom,
     * an undefined R²) are null: the line carries them as NaN.
     */
    public static LinearFit stored(double base, double slope, Double baseVariance, Double slopeVariance,
            Double covariance, Double residualStdErr, int degreesOfFreedom, int stepCount, Double rSquared) {
        return new LinearFit(base, slope, Finite.orNaN(baseVariance), Finite.orNaN(slopeVariance), Finite.orNaN(covariance),
                Finite.orNaN(residualStdErr), degreesOfFreedom, stepCount, Finite.orNaN(rSquared));
    }

    /** ŷ(x) = base + slope·x. */
    public double predict(double x) {
        return base + slope * x;
    }

    /** SE of the fitted mean at x: √(Var b₀ + x²·Var b₁ + 2x·Cov(b₀,b₁)). */
    public double meanStdErr(double x) {
        return Math.sqrt(Math.max(0, baseVariance + x * x * slopeVariance + 2 * x * covariance));
    }

    /**
     * Half-width of the {@code level} prediction interval for one new unit-weight step at x:
     * t(1−α/2, n−2)·√(σ̂² + SE(ŷ)²). NaN when there are no residual degrees of freedom.
     */
    public double predictionHalfWidth(double x, double level) {
        if (degreesOfFreedom < 1) {
            return Double.NaN;
        }
        double se = Math.sqrt(residualStdErr * residualStdErr + Math.pow(meanStdErr(x), 2));
        return FitStatistics.tQuantile(level, degreesOfFreedom) * se;
    }

    public double baseStdErr() {
        return Math.sqrt(baseVariance);
    }

    public double slopeStdErr() {
        return Math.sqrt(slopeVariance);
    }
}
