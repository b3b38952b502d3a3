package dev.caplab.analysis.usl;

import dev.caplab.analysis.FitFailedException;
import dev.caplab.analysis.InsufficientDataException;
import java.util.List;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.exception.MathIllegalStateException;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.linear.SingularMatrixException;
import org.apache.commons.math3.util.Pair;

/** Least-squares USL fit by Levenberg–Marquardt (Moré 1978, via Commons Math). */
public final class UslModel {
    private UslModel() {
    }

    /**
     * Minimises Σ(Xᵢ − λNᵢ/(1 + σ(Nᵢ−1) + κNᵢ(Nᵢ−1)))² over (λ, σ, κ), covariance σ̂²(JᵀJ)⁻¹ with
     * σ̂² = RSS/(n−3), as R {@code nls} reports; N* SE by the delta method on √((1−σ)/κ).
     */
    public static UslFit fit(List<UslPoint> points) {
        int n = points.size();
        if (n < 4) {
            throw new InsufficientDataException("USL fit: points", n, 4);
        }
        double[] c = points.stream().mapToDouble(UslPoint::concurrency).toArray();
        double[] x = points.stream().mapToDouble(UslPoint::throughput).toArray();
        double lambda0 = 0;
        for (int i = 0; i < n; i++) {
            lambda0 = Math.max(lambda0, x[i] / c[i]);
        }
        LeastSquaresOptimizer.Optimum opt;
        try {
            opt = new LevenbergMarquardtOptimizer().optimize(new LeastSquaresBuilder()
                    .start(new double[] {lambda0, 0.01, 1e-4})
                    .model(p -> valueAndJacobian(c, p))
                    .target(x)
                    .maxEvaluations(10_000)
                    .maxIterations(10_000)
                    .build());
        } catch (MathIllegalStateException e) {
            throw new FitFailedException("USL: Levenberg-Marquardt did not converge on " + n + " points", e);
        }
        double[] p = opt.getPoint().toArray();
        double rss = Math.pow(opt.getRMS(), 2) * n, s2 = rss / (n - 3);
        RealMatrix cov;
        try {
            cov = opt.getCovariances(1e-14).scalarMultiply(s2);
        } catch (SingularMatrixException e) {
            throw new FitFailedException("USL: parameters not identifiable on " + n + " points", e);
        }
        double t = new TDistribution(null, n - 3).inverseCumulativeProbability(0.975);
        Estimate lambda = estimate(p[0], cov.getEntry(0, 0), t);
        Estimate sigma = estimate(p[1], cov.getEntry(1, 1), t);
        Estimate kappa = estimate(p[2], cov.getEntry(2, 2), t);
        Estimate peak;
        double peakX;
        if (p[2] > 0 && p[1] < 1) {
            double nStar = Math.sqrt((1 - p[1]) / p[2]);
            double dSigma = -1 / (2 * p[2] * nStar), dKappa = -nStar / (2 * p[2]);
            double var = dSigma * dSigma * cov.getEntry(1, 1) + dKappa * dKappa * cov.getEntry(2, 2)
                    + 2 * dSigma * dKappa * cov.getEntry(1, 2);
            peak = estimate(nStar, var, t);
            peakX = p[0] * nStar / (1 + p[1] * (nStar - 1) + p[2] * nStar * (nStar - 1));
        } else {
            // κ ≤ 0: throughput never turns down (Amdahl regime), so there is no finite peak.
            peak = new Estimate(Double.MAX_VALUE, Double.NaN, Double.NaN, Double.NaN);
            peakX = p[0] / Math.max(p[1], 1e-300);
        }
        double mean = 0, tss = 0;
        for (double v : x) {
            mean += v / n;
        }
        for (double v : x) {
            tss += (v - mean) * (v - mean);
        }
        return new UslFit(UslFit.MODEL_NAME, UslFit.MODEL_VERSION, lambda, sigma, kappa, peak, peakX, 1 - rss / tss, n);
    }

    private static Estimate estimate(double v, double var, double t) {
        double se = Math.sqrt(Math.max(0, var));
        return new Estimate(v, se, v - t * se, v + t * se);
    }

    private static Pair<RealVector, RealMatrix> valueAndJacobian(double[] c, RealVector p) {
        double l = p.getEntry(0), s = p.getEntry(1), k = p.getEntry(2);
        double[] f = new double[c.length];
        double[][] j = new double[c.length][3];
        for (int i = 0; i < c.length; i++) {
            double n = c[i], d = 1 + s * (n - 1) + k * n * (n - 1);
            f[i] = l * n / d;
            j[i][0] = n / d;
            j[i][1] = -l * n * (n - 1) / (d * d);
            j[i][2] = -l * n * n * (n - 1) / (d * d);
        }
        return new Pair<>(new ArrayRealVector(f, false), new Array2DRowRealMatrix(j, false));
    }
}
