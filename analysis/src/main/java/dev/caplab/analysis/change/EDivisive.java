package dev.caplab.analysis.change;

/**
 * The E-divisive candidate search (Matteson &amp; James 2014, "A nonparametric approach for multiple change
 * point analysis of multivariate data", JASA 109:334, eq. 6 with α = 1): within [start, end) find τ &lt; κ
 * maximising Q̂ = 2/(m+n)·ΣΣ|Xᵢ−Yⱼ| − 2m/((m+n)(n−1))·Σᵢ&lt;ₖ|Xᵢ−Xₖ| − 2n/((m+n)(m−1))·Σⱼ&lt;ₖ|Yⱼ−Yₖ|
 * with X = series[start, τ), Y = series[τ, κ); a coefficient with a zero denominator is 0, as in Otava.
 */
final class EDivisive {
    private EDivisive() {
    }

    /** Best split τ in [start, end) and its Q̂; τ = −1 when the interval is shorter than 2. */
    record Candidate(int index, double qhat) {}

    static Candidate candidate(double[] v, int start, int end) {
        if (end - start < 2) {
            return new Candidate(-1, Double.NEGATIVE_INFINITY);
        }
        int bestTau = -1;
        double best = Double.NEGATIVE_INFINITY;
        for (int tau = start + 1; tau < end; tau++) {
            double withinLeft = 0;
            for (int i = start; i < tau; i++) {
                for (int k = i + 1; k < tau; k++) {
                    withinLeft += Math.abs(v[i] - v[k]);
                }
            }
            double cross = 0, withinRight = 0;
            for (int kappa = tau + 1; kappa <= end; kappa++) {
                double y = v[kappa - 1];
                for (int i = start; i < tau; i++) {
                    cross += Math.abs(v[i] - y);
                }
                for (int j = tau; j < kappa - 1; j++) {
                    withinRight += Math.abs(v[j] - y);
                }
                int n = tau - start, m = kappa - tau;
                double q = 2.0 / (m + n) * cross
                        - (n > 1 ? 2.0 * m / ((m + n) * (double) (n - 1)) * withinLeft : 0)
                        - (m > 1 ? 2.0 * n / ((m + n) * (double) (m - 1)) * withinRight : 0);
                if (q > best) {
                    best = q;
                    bestTau = tau;
                }
            }
        }
        return new Candidate(bestTau, best);
    }
}
