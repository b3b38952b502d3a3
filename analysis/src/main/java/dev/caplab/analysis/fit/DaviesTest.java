package dev.caplab.analysis.fit;

import dev.caplab.analysis.InsufficientDataException;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.special.Gamma;

/**
 * Davies' test for a change in slope (Davies 2002, "Hypothesis testing when a nuisance parameter is
 * present only under the alternative: linear model case", Biometrika 89:484), as R
 * {@code segmented::davies.test(type="wald", alternative="two.sided")} computes it for a linear model.
 *
 * <p>For K loads ψ equally spaced between the second smallest and second largest x, fit
 * y = b₀ + b₁x + δ(x−ψ)₊ and take the t statistic of δ. With M = max|t|, ν = n − 3 and total
 * variation V = Σ|arcsin √R²ₖ − arcsin √R²ₖ₋₁| (R²ₖ = Z²/(Z² + RSS), Z = δ/√(XᵀWX)⁻¹₁₁), the bound is
 * p = 2·[P(T_ν &gt; M) + V·(1−u)^((ν−1)/2)·Γ(ν/2+½)/(2Γ(ν/2)√π)], u = M²/(ν + M²).
 */
public final class DaviesTest {
    public static final String METHOD = "davies";
    private static final int DEFAULT_GRID = 10;

    private DaviesTest() {
    }

    /** Share of the total sum of squares below which a fit counts as exact (round-off, not signal). */
    private static final double EXACT_FIT_SHARE = 1e-12;

    /** The two-sided test with R's default K = 10 grid points. */
    public static ExistenceTest test(StepSeries s) {
        return test(s, DEFAULT_GRID);
    }

    /** The two-sided test over {@code k} grid points (k ≥ 2). */
    public static ExistenceTest test(StepSeries s, int k) {
        int n = s.size();
        if (n < 5) {
            throw new InsufficientDataException("davies test: steps", n, 5);
        }
        if (k < 2) {
            throw new IllegalArgumentException("davies test needs k >= 2 grid points, got " + k);
        }
        SegmentedModel.Scaled sc = SegmentedModel.Scaled.of(s.xs());
        double[] u = sc.u();
        double lo = u[1], hi = u[n - 2];
        int dof = n - 3;
        // Residual variance floors at a tiny share of the total: noise-free data would otherwise give 0/0.
        double rssFloor = EXACT_FIT_SHARE * FitStatistics.tss(s.ys(), s.weights());
        LinearFit line = LinearModel.fitLine(s);
        if (rssFloor == 0 || line.residualStdErr() * line.residualStdErr() * line.degreesOfFreedom() <= rssFloor) {
            // A constant or an exact straight line: nothing for a breakpoint to explain.
            return new ExistenceTest(METHOD, 0, Double.NaN, 1, k);
        }
        double maxAbsT = -1, best = Double.NaN, variation = 0, prevAngle = Double.NaN;
        for (int i = 0; i < k; i++) {
            double psi = lo + (hi - lo) * i / (k - 1);
            SlopeChange sc1 = slopeChange(u, s.ys(), s.weights(), psi);
            if (sc1 == null) {
                continue;
            }
            double rss = Math.max(sc1.rss(), rssFloor);
            double t = sc1.z() / Math.sqrt(rss / dof);
            double angle = Math.asin(Math.sqrt(sc1.z() * sc1.z() / (sc1.z() * sc1.z() + rss)));
            if (!Double.isNaN(prevAngle)) {
                variation += Math.abs(angle - prevAngle);
            }
            prevAngle = angle;
            if (Math.abs(t) > maxAbsT) {
                maxAbsT = Math.abs(t);
                best = sc.toX(psi);
            }
        }
        if (maxAbsT < 0) {
            throw new InsufficientDataException("davies test: grid points with a non-singular design", 0, 1);
        }
        double m = maxAbsT;
        double naive = 1 - new TDistribution(null, dof).cumulativeProbability(m);
        double uu = m * m / (dof + m * m);
        double approx = variation * Math.pow(1 - uu, (dof - 1) / 2.0)
                * Math.exp(Gamma.logGamma(dof / 2.0 + 0.5) - Gamma.logGamma(dof / 2.0)) / (2 * Math.sqrt(Math.PI));
        double p = Math.min(1, 2 * (naive + approx));
        return new ExistenceTest(METHOD, m, best, p, k);
    }

    private record SlopeChange(double z, double rss) {}

    /** δ/√((XᵀWX)⁻¹)₁₁ and RSS of the fit with one fixed hinge; null when the design is singular. */
    private static SlopeChange slopeChange(double[] u, double[] y, double[] w, double psi) {
        double[][] xtx = new double[3][3];
        double[] xty = new double[3];
        for (int i = 0; i < u.length; i++) {
            double[] row = {Math.max(u[i] - psi, 0), 1, u[i]};
            for (int a = 0; a < 3; a++) {
                xty[a] += w[i] * row[a] * y[i];
                for (int b = 0; b < 3; b++) {
                    xtx[a][b] += w[i] * row[a] * row[b];
                }
            }
        }
        var lu = new org.apache.commons.math3.linear.LUDecomposition(
                new org.apache.commons.math3.linear.Array2DRowRealMatrix(xtx, false), 1e-12);
        if (!lu.getSolver().isNonSingular()) {
            return null;
        }
        var inv = lu.getSolver().getInverse();
        double[] b = inv.operate(xty);
        double rss = 0;
        for (int i = 0; i < u.length; i++) {
            double f = b[0] * Math.max(u[i] - psi, 0) + b[1] + b[2] * u[i];
            rss += w[i] * (y[i] - f) * (y[i] - f);
        }
        // δ scales with 1/scale and so does its SE: the ratio, and hence the test, is unit-free.
        return new SlopeChange(b[0] / Math.sqrt(inv.getEntry(0, 0)), rss);
    }
}
