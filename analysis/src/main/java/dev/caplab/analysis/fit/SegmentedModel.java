package dev.caplab.analysis.fit;

import dev.caplab.analysis.FitFailedException;
import dev.caplab.analysis.InsufficientDataException;
import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.Segment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.math3.exception.MathIllegalStateException;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresProblem;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.DiagonalMatrix;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.linear.SingularMatrixException;
import org.apache.commons.math3.util.Pair;

/**
 * Continuous piecewise-linear regression with 1 or 2 breakpoints:
 * y = b₀ + b₁x + Σⱼ δⱼ(x − ψⱼ)₊ (Muggeo 2003, "Estimating regression models with unknown break-points",
 * Statistics in Medicine 22:3055, eq. 1), estimated by a profile grid over ψ then Levenberg–Marquardt
 * on all parameters. Breakpoints are kept within [x₍₃₎, x₍ₙ₋₂₎], and two breakpoints have at least two
 * steps strictly between them, so every segment rests on three steps: with two, a breakpoint can
 * buy an exact fit of one noisy end step, and BIC would too often pay for it.
 */
public final class SegmentedModel implements PiecewiseLinearModel {
    public static final String VERSION = "1";

    private final int breakpoints;

    public SegmentedModel(int breakpoints) {
        if (breakpoints < 1 || breakpoints > 2) {
            throw new IllegalArgumentException("segmented model supports 1 or 2 breakpoints, got " + breakpoints);
        }
        this.breakpoints = breakpoints;
    }

    @Override
    public String modelName() {
        return "segmented-" + breakpoints;
    }

    @Override
    public int breakpointCount() {
        return breakpoints;
    }

    /**
     * Least-squares estimate of Muggeo's eq. 1 with covariance σ̂²(JᵀWJ)⁻¹, σ̂² = RSS/(n − 2 − 2k);
     * J is the Jacobian [1, x, (x−ψⱼ)₊, −δⱼ·1(x&gt;ψⱼ)], the same linearisation R {@code segmented}
     * uses for its breakpoint standard errors.
     */
    @Override
    public ModelFit fit(StepSeries s) {
        int n = s.size();
        if (n < minimumSteps()) {
            throw new InsufficientDataException(modelName() + ": steps", n, minimumSteps());
        }
        Scaled sc = Scaled.of(s.xs());
        double lo = sc.u()[2], hi = sc.u()[n - 3];
        SegmentedGrid grid = new SegmentedGrid(sc.u(), s.ys(), s.weights());
        SegmentedGrid.Profile start = grid.search(breakpoints, lo, hi);
        if (start.coefficients() == null) {
            throw new FitFailedException(modelName() + ": no breakpoint placement gives a non-singular design over "
                    + n + " steps");
        }
        double[] theta = refine(sc.u(), s.ys(), s.weights(), start, lo, hi);
        double[] psi = Arrays.copyOfRange(theta, 2 + breakpoints, theta.length);
        SegmentedGrid.Profile finalFit = grid.solve(psi);
        if (finalFit.rss() > start.rss() || !grid.admissible(psi)) {
            // LM may end in a worse kink, or slide two breakpoints together; the grid optimum is then the answer.
            finalFit = start;
            psi = start.psi();
        }
        System.arraycopy(finalFit.coefficients(), 0, theta, 0, 2 + breakpoints);
        System.arraycopy(psi, 0, theta, 2 + breakpoints, breakpoints);
        return summarise(s, sc, theta, finalFit.rss());
    }

    private double[] refine(double[] u, double[] y, double[] w, SegmentedGrid.Profile start, double lo, double hi) {
        int k = breakpoints;
        double[] theta0 = new double[2 + 2 * k];
        System.arraycopy(start.coefficients(), 0, theta0, 0, 2 + k);
        System.arraycopy(start.psi(), 0, theta0, 2 + k, k);
        LeastSquaresProblem problem = new LeastSquaresBuilder()
                .start(theta0)
                .model(point -> valueAndJacobian(u, point))
                .target(y)
                .weight(new DiagonalMatrix(w))
                .parameterValidator(point -> clampBreakpoints(point, lo, hi))
                .maxEvaluations(2_000)
                .maxIterations(2_000)
                .build();
        try {
            return new LevenbergMarquardtOptimizer().optimize(problem).getPoint().toArray();
        } catch (MathIllegalStateException e) {
            throw new FitFailedException(modelName() + ": Levenberg-Marquardt did not converge on " + u.length
                    + " steps", e);
        }
    }

    private RealVector clampBreakpoints(RealVector p, double lo, double hi) {
        int k = breakpoints;
        double[] psi = new double[k];
        for (int j = 0; j < k; j++) {
            psi[j] = Math.min(hi, Math.max(lo, p.getEntry(2 + k + j)));
        }
        Arrays.sort(psi);
        RealVector out = p.copy();
        for (int j = 0; j < k; j++) {
            out.setEntry(2 + k + j, psi[j]);
        }
        return out;
    }

    private Pair<RealVector, RealMatrix> valueAndJacobian(double[] u, RealVector p) {
        int k = breakpoints, n = u.length;
        double[] f = new double[n];
        double[][] jac = new double[n][2 + 2 * k];
        for (int i = 0; i < n; i++) {
            f[i] = p.getEntry(0) + p.getEntry(1) * u[i];
            jac[i][0] = 1;
            jac[i][1] = u[i];
            for (int j = 0; j < k; j++) {
                double psi = p.getEntry(2 + k + j), delta = p.getEntry(2 + j);
                double hinge = Math.max(u[i] - psi, 0);
                f[i] += delta * hinge;
                jac[i][2 + j] = hinge;
                jac[i][2 + k + j] = u[i] > psi ? -delta : 0;
            }
        }
        return new Pair<>(new ArrayRealVector(f, false), new Array2DRowRealMatrix(jac, false));
    }

    private ModelFit summarise(StepSeries s, Scaled sc, double[] theta, double rss) {
        int k = breakpoints, n = s.size(), p = parameterCount();
        double[] u = sc.u();
        RealMatrix j = valueAndJacobian(u, new ArrayRealVector(theta)).getSecond();
        RealMatrix jtwj = new Array2DRowRealMatrix(p, p);
        for (int i = 0; i < n; i++) {
            for (int a = 0; a < p; a++) {
                for (int b = 0; b < p; b++) {
                    jtwj.addToEntry(a, b, s.weight(i) * j.getEntry(i, a) * j.getEntry(i, b));
                }
            }
        }
        double sigma2 = rss / (n - p);
        RealMatrix cov;
        try {
            cov = new org.apache.commons.math3.linear.LUDecomposition(jtwj, 1e-14).getSolver().getInverse()
                    .scalarMultiply(sigma2);
        } catch (SingularMatrixException e) {
            throw new FitFailedException(modelName() + ": breakpoint not identifiable (singular information matrix) on "
                    + n + " steps", e);
        }
        double t = FitStatistics.tQuantile(0.95, n - p);
        List<Breakpoint> bps = new ArrayList<>(k);
        for (int q = 0; q < k; q++) {
            double psiX = sc.toX(theta[2 + k + q]);
            double se = sc.scale() * Math.sqrt(Math.max(0, cov.getEntry(2 + k + q, 2 + k + q)));
            if (!(se > 0)) {
                throw new FitFailedException(modelName() + ": breakpoint " + (q + 1) + " at x=" + psiX
                        + " has no standard error (not identifiable) on " + n + " steps");
            }
            bps.add(Pieces.breakpoint(psiX, se, psiX - t * se, psiX + t * se));
        }
        List<Segment> segs = new ArrayList<>(k + 1);
        for (int seg = 0; seg <= k; seg++) {
            double[] gSlope = new double[p], gIntercept = new double[p];
            double slopeU = theta[1], interceptU = theta[0];
            gSlope[1] = 1 / sc.scale();
            gIntercept[0] = 1;
            gIntercept[1] = -sc.mean() / sc.scale();
            for (int q = 0; q < seg; q++) {
                double delta = theta[2 + q], psi = theta[2 + k + q];
                slopeU += delta;
                interceptU -= delta * psi;
                gSlope[2 + q] = 1 / sc.scale();
                gIntercept[2 + q] = -psi - sc.mean() / sc.scale();
                gIntercept[2 + k + q] = -delta;
            }
            double slope = slopeU / sc.scale(), intercept = interceptU - slopeU * sc.mean() / sc.scale();
            double slopeSe = Math.sqrt(quad(cov, gSlope)), interceptSe = Math.sqrt(quad(cov, gIntercept));
            double from = seg == 0 ? s.x(0) : bps.get(seg - 1).getX();
            double to = seg == k ? s.x(n - 1) : bps.get(seg).getX();
            segs.add(Pieces.segment(from, to, intercept, interceptSe, slope, slopeSe, slope - t * slopeSe,
                    slope + t * slopeSe));
        }
        double[] fitted = new double[n];
        for (int i = 0; i < n; i++) {
            double f = theta[0] + theta[1] * u[i];
            for (int q = 0; q < k; q++) {
                f += theta[2 + q] * Math.max(u[i] - theta[2 + k + q], 0);
            }
            fitted[i] = f;
        }
        ResidualStats res = FitStatistics.residuals(s.ys(), fitted, s.weights(), p);
        return new ModelFit(modelName(), VERSION, segs, bps, FitStatistics.rSquared(s.ys(), s.weights(), rss),
                FitStatistics.bic(s.ys(), s.weights(), rss, p), res, p, n);
    }

    private static double quad(RealMatrix cov, double[] g) {
        return Math.max(0, new ArrayRealVector(g, false).dotProduct(cov.operate(new ArrayRealVector(g, false))));
    }

    /** Loads centred and scaled: u = (x − mean)/scale, so parameters are of similar magnitude for the optimiser. */
    record Scaled(double[] u, double mean, double scale) {
        static Scaled of(double[] x) {
            double mean = Arrays.stream(x).average().orElseThrow();
            double ss = 0;
            for (double v : x) {
                ss += (v - mean) * (v - mean);
            }
            double scale = Math.sqrt(ss / x.length);
            double[] u = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                u[i] = (x[i] - mean) / scale;
            }
            return new Scaled(u, mean, scale);
        }

        double toX(double uValue) {
            return mean + scale * uValue;
        }
    }
}
