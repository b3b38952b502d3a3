package dev.caplab.analysis.change;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Change points in a time-ordered series (slope per release, max stable load per week) the way Apache Otava
 * finds them (Fleming et al. 2023, "Hunter: using change point detection to hunt for performance
 * regressions", ICPE): split — repeatedly take the interval's best E-divisive candidate and keep it while
 * its t-test p-value is below the relaxed bound; merge — drop the weakest point (largest p, or smallest
 * magnitude once all pass) and retest its neighbours until every point passes {@code maxPValue} and
 * {@code minMagnitude}. Unlike Otava the split runs over the whole series, not 50-point windows: series of
 * runs are short, and this keeps the O(n³) search exact.
 */
public final class ChangeDetection {
    private ChangeDetection() {
    }

    /** Significant digits a value keeps: fitted knees of 12 and 11.999999999999996 are the same knee. */
    static final int SIGNIFICANT_DIGITS = 12;

    /**
     * Finds the change points of {@code series} (oldest first). Values are first rounded to
     * {@value #SIGNIFICANT_DIGITS} significant digits: two regimes without spread differ at p = 0 however small the
     * difference, so floating-point noise in computed values would otherwise read as a change.
     */
    public static ChangeReport detect(double[] values, ChangeOptions o) {
        double[] series = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            if (!Double.isFinite(values[i])) {
                throw new IllegalArgumentException("series value " + i + " is not finite: " + values[i]);
            }
            series[i] = new BigDecimal(values[i]).round(new MathContext(SIGNIFICANT_DIGITS)).doubleValue();
        }
        List<Integer> cps = split(series, o.firstPassPValue());
        return new ChangeReport(ChangeReport.MODEL_NAME, ChangeReport.MODEL_VERSION, series.length, merge(series, cps, o));
    }

    private static List<Integer> split(double[] v, double pBound) {
        List<Integer> cps = new ArrayList<>();
        while (true) {
            EDivisive.Candidate best = new EDivisive.Candidate(-1, Double.NEGATIVE_INFINITY);
            int from = 0, to = v.length;
            for (int s = 0; s <= cps.size(); s++) {
                int a = s == 0 ? 0 : cps.get(s - 1), b = s == cps.size() ? v.length : cps.get(s);
                EDivisive.Candidate c = EDivisive.candidate(v, a, b);
                if (c.index() > 0 && c.qhat() > best.qhat()) {
                    best = c;
                    from = a;
                    to = b;
                }
            }
            if (best.index() < 0 || StudentTTest.compare(best.index(), v, from, best.index(), to).pValue() >= pBound) {
                return cps;
            }
            cps.add(best.index());
            cps.sort(Comparator.naturalOrder());
        }
    }

    private static List<ChangePoint> merge(double[] v, List<Integer> indices, ChangeOptions o) {
        List<Integer> cps = new ArrayList<>(indices);
        while (!cps.isEmpty()) {
            List<ChangePoint> stats = stats(v, cps);
            ChangePoint weakest = stats.stream().max(Comparator.comparingDouble(ChangePoint::pValue)).orElseThrow();
            if (weakest.pValue() < o.maxPValue()) {
                weakest = stats.stream().min(Comparator.comparingDouble(ChangePoint::magnitude)).orElseThrow();
                if (weakest.magnitude() > o.minMagnitude()) {
                    return stats;
                }
            }
            cps.remove(Integer.valueOf(weakest.index()));
        }
        return List.of();
    }

    /** Each point tested between its neighbouring change points (or the series ends). */
    private static List<ChangePoint> stats(double[] v, List<Integer> cps) {
        List<ChangePoint> out = new ArrayList<>(cps.size());
        for (int i = 0; i < cps.size(); i++) {
            int from = i == 0 ? 0 : cps.get(i - 1), to = i == cps.size() - 1 ? v.length : cps.get(i + 1);
            out.add(StudentTTest.compare(cps.get(i), v, from, cps.get(i), to));
        }
        return out;
    }
}
