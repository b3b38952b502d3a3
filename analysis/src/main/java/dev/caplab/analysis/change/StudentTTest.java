package dev.caplab.analysis.change;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * Otava's {@code TTestSignificanceTester}: scipy {@code ttest_ind_from_stats} (pooled variance, two-sided)
 * fed with population standard deviations (numpy {@code std}, ddof 0), reproduced as is so p-values match.
 */
final class StudentTTest {
    private StudentTTest() {
    }

    /** t = (x̄₁ − x̄₂)/(s_p√(1/n₁ + 1/n₂)), s_p² = ((n₁−1)s₁² + (n₂−1)s₂²)/(n₁+n₂−2), p = 2·P(T &gt; |t|). */
    static ChangePoint compare(int index, double[] series, int from, int split, int to) {
        int n1 = split - from, n2 = to - split;
        double m1 = mean(series, from, split), m2 = mean(series, split, to);
        double s1 = n1 >= 2 ? popStd(series, from, split, m1) : 0, s2 = n2 >= 2 ? popStd(series, split, to, m2) : 0;
        int dof = n1 + n2 - 2;
        double t = 0, p = 1;
        if (dof > 0) {
            double sp = Math.sqrt(((n1 - 1) * s1 * s1 + (n2 - 1) * s2 * s2) / dof);
            double se = sp * Math.sqrt(1.0 / n1 + 1.0 / n2);
            if (se > 0) {
                t = (m1 - m2) / se;
                p = Math.min(1, 2 * new TDistribution(null, dof).cumulativeProbability(-Math.abs(t)));
            } else if (m1 != m2) {
                // Two flat, different regimes: infinitely significant, as scipy's ±inf t gives p = 0.
                t = Math.copySign(Double.POSITIVE_INFINITY, m1 - m2);
                p = 0;
            }
        }
        double fwd = m1 == 0 ? 0 : m2 / m1 - 1, bwd = m2 == 0 ? 0 : m1 / m2 - 1;
        return new ChangePoint(index, Math.max(Math.abs(fwd), Math.abs(bwd)), fwd * 100, m1, s1, m2, s2, t, p);
    }

    private static double mean(double[] v, int from, int to) {
        double s = 0;
        for (int i = from; i < to; i++) {
            s += v[i];
        }
        return s / (to - from);
    }

    private static double popStd(double[] v, int from, int to, double mean) {
        double s = 0;
        for (int i = from; i < to; i++) {
            s += (v[i] - mean) * (v[i] - mean);
        }
        return Math.sqrt(s / (to - from));
    }
}
