package dev.caplab.analysis.fit;

import org.apache.commons.math3.distribution.TDistribution;

/** Goodness-of-fit arithmetic shared by the models (R², BIC, residual summary, t quantiles). */
public final class FitStatistics {
    private FitStatistics() {
    }

    /** Weighted RSS Σ wᵢ(yᵢ − ŷᵢ)². */
    static double rss(double[] y, double[] fitted, double[] w) {
        double s = 0;
        for (int i = 0; i < y.length; i++) {
            double r = y[i] - fitted[i];
            s += w[i] * r * r;
        }
        return s;
    }

    /** Weighted TSS Σ wᵢ(yᵢ − ȳ_w)² about the weighted mean. */
    static double tss(double[] y, double[] w) {
        double sw = 0, swy = 0;
        for (int i = 0; i < y.length; i++) {
            sw += w[i];
            swy += w[i] * y[i];
        }
        double mean = swy / sw, tss = 0;
        for (int i = 0; i < y.length; i++) {
            tss += w[i] * (y[i] - mean) * (y[i] - mean);
        }
        return tss;
    }

    /** R² = 1 − RSS/TSS with TSS about the weighted mean. */
    static double rSquared(double[] y, double[] w, double rss) {
        double tss = tss(y, w);
        return tss == 0 ? 1.0 : 1.0 - rss / tss;
    }

    /**
     * BIC = −2·logLik + (p+1)·ln n, logLik = ½(Σ ln wᵢ − n(ln 2π + 1 − ln n + ln RSS)) — R {@code logLik.lm}.
     * RSS is floored at 1e-12·TSS so that an exact fit does not give −∞ and win by accident.
     */
    static double bic(double[] y, double[] w, double rss, int p) {
        int n = y.length;
        double tss = Math.max(rss, 1e-300);
        double sumLogW = 0;
        for (int i = 0; i < n; i++) {
            sumLogW += Math.log(w[i]);
        }
        tss = Math.max(tss, 1e-12 * tss(y, w));
        double logLik = 0.5 * (sumLogW - n * (Math.log(2 * Math.PI) + 1 - Math.log(n) + Math.log(tss)));
        return -2 * logLik + (p + 1) * Math.log(n);
    }

    static ResidualStats residuals(double[] y, double[] fitted, double[] w, int p) {
        double rss = rss(y, fitted, w), maxAbs = 0;
        for (int i = 0; i < y.length; i++) {
            maxAbs = Math.max(maxAbs, Math.abs(y[i] - fitted[i]));
        }
        int dof = y.length - p;
        return new ResidualStats(rss, dof > 0 ? Math.sqrt(rss / dof) : Double.NaN, Math.max(dof, 0), maxAbs);
    }

    /** Two-sided quantile t(1 − α/2, dof) for a {@code level} interval. */
    public static double tQuantile(double level, int dof) {
        return new TDistribution(null, dof).inverseCumulativeProbability(0.5 + level / 2);
    }
}
