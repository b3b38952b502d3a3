package dev.caplab.analysis.fit;

import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.LUDecomposition;
import org.apache.commons.math3.linear.RealVector;

/**
 * Profile least squares over fixed breakpoints: for given ψ the model y = b₀ + b₁u + Σδⱼ(u−ψⱼ)₊ is
 * linear, so its RSS comes from the normal equations. A grid over ψ gives the starting point that the
 * nonlinear refinement then polishes (the grid-then-iterate scheme of Muggeo 2003, §3).
 */
final class SegmentedGrid {
    private static final int GRID_ONE = 40;
    private static final int GRID_TWO = 20;

    private final double[] u;
    private final double[] y;
    private final double[] w;

    /** {@code u} are loads already centred and scaled, so the normal equations stay well conditioned. */
    SegmentedGrid(double[] u, double[] y, double[] w) {
        this.u = u;
        this.y = y;
        this.w = w;
    }

    /** Result of one profile solve: coefficients [b₀, b₁, δ…] and RSS; rss is +∞ for a singular design. */
    record Profile(double[] psi, double[] coefficients, double rss) {}

    /** Solves the linear problem at fixed {@code psi}. */
    Profile solve(double[] psi) {
        int p = 2 + psi.length;
        double[][] xtx = new double[p][p];
        double[] xty = new double[p];
        double[] row = new double[p];
        for (int i = 0; i < u.length; i++) {
            row[0] = 1;
            row[1] = u[i];
            for (int j = 0; j < psi.length; j++) {
                row[2 + j] = Math.max(u[i] - psi[j], 0);
            }
            for (int a = 0; a < p; a++) {
                xty[a] += w[i] * row[a] * y[i];
                for (int b = a; b < p; b++) {
                    xtx[a][b] += w[i] * row[a] * row[b];
                }
            }
        }
        for (int a = 0; a < p; a++) {
            for (int b = 0; b < a; b++) {
                xtx[a][b] = xtx[b][a];
            }
        }
        LUDecomposition lu = new LUDecomposition(new Array2DRowRealMatrix(xtx, false), 1e-12);
        if (!lu.getSolver().isNonSingular()) {
            // A breakpoint placed where no point separates it from its neighbour: not a candidate.
            return new Profile(psi, null, Double.POSITIVE_INFINITY);
        }
        RealVector b = lu.getSolver().solve(new ArrayRealVector(xty, false));
        double rss = 0;
        for (int i = 0; i < u.length; i++) {
            double f = b.getEntry(0) + b.getEntry(1) * u[i];
            for (int j = 0; j < psi.length; j++) {
                f += b.getEntry(2 + j) * Math.max(u[i] - psi[j], 0);
            }
            rss += w[i] * (y[i] - f) * (y[i] - f);
        }
        return new Profile(psi, b.toArray(), rss);
    }

    /** Best grid point for {@code k} breakpoints within [lo, hi]; grid = equal spacing plus the data loads. */
    Profile search(int k, double lo, double hi) {
        double[] grid = candidates(k == 1 ? GRID_ONE : GRID_TWO, lo, hi);
        Profile best = new Profile(null, null, Double.POSITIVE_INFINITY);
        if (k == 1) {
            for (double g : grid) {
                Profile pr = solve(new double[] {g});
                if (pr.rss() < best.rss()) {
                    best = pr;
                }
            }
        } else {
            for (int a = 0; a < grid.length; a++) {
                for (int b = a + 1; b < grid.length; b++) {
                    if (!pointBetween(grid[a], grid[b])) {
                        continue;
                    }
                    Profile pr = solve(new double[] {grid[a], grid[b]});
                    if (pr.rss() < best.rss()) {
                        best = pr;
                    }
                }
            }
        }
        return best;
    }

    /** Whether sorted breakpoints leave at least two steps strictly between each pair. */
    boolean admissible(double[] psi) {
        for (int j = 1; j < psi.length; j++) {
            if (!pointBetween(psi[j - 1], psi[j])) {
                return false;
            }
        }
        return true;
    }

    private boolean pointBetween(double a, double b) {
        int inside = 0;
        for (double v : u) {
            if (v > a && v < b) {
                inside++;
            }
        }
        return inside >= 2;
    }

    private double[] candidates(int count, double lo, double hi) {
        java.util.TreeSet<Double> set = new java.util.TreeSet<>();
        for (int i = 0; i < count; i++) {
            set.add(lo + (hi - lo) * i / (count - 1));
        }
        // Data loads are natural candidates, but with thousands of raw loads the equal grid suffices.
        if (u.length <= 4 * count) {
            for (double v : u) {
                if (v >= lo && v <= hi) {
                    set.add(v);
                }
            }
        }
        return set.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
