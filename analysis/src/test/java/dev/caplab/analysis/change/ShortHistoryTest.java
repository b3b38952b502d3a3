package dev.caplab.analysis.change;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Change detection on histories of 5–30 runs (one value per run: a knee, a slope, a max stable load), the length the
 * run history endpoint sees. Series are built by hand with a known change; noise is 5 % of the level, about what a
 * re-run of the same capacity test gives. Every random series comes from a fixed seed, so the rates printed and
 * asserted here are the same on every machine.
 */
class ShortHistoryTest {

    private static final int[] LENGTHS = {5, 6, 8, 10, 15, 20, 30};
    private static final int SEEDS = 400;

    /** A new version needing twice the CPU per user halves the knee at run 3 of 7: found there, and only there. */
    @Test
    void aHalvedKneeIsFoundAtTheRunThatHalvedIt() {
        double[] knee = {12.1, 11.8, 12.0, 6.1, 5.9, 6.0, 6.05};
        ChangeReport r = ChangeDetection.detect(knee, ChangeOptions.DEFAULT);
        assertThat(r.changePoints()).hasSize(1);
        ChangePoint cp = r.changePoints().getFirst();
        assertThat(cp.index()).isEqualTo(3);
        assertThat(cp.meanBefore()).isEqualTo((12.1 + 11.8 + 12.0) / 3);
        assertThat(cp.meanAfter()).isEqualTo((6.1 + 5.9 + 6.0 + 6.05) / 4);
        assertThat(cp.forwardChangePercent()).isNegative();
    }

    /** Two flat regimes (identical values, as a max stable load on a fixed step grid gives) split at p = 0. */
    @Test
    void twoFlatRegimesOnAStepGridSplitWhereTheyChange() {
        double[] maxStable = {14, 14, 14, 14, 6, 6};
        var cps = ChangeDetection.detect(maxStable, ChangeOptions.DEFAULT).changePoints();
        assertThat(cps).extracting(ChangePoint::index).containsExactly(4);
        assertThat(cps.getFirst().pValue()).isZero();
    }

    /** Fitted values carry floating-point noise; 12 and 11.999999999999996 are one regime, not a change at p = 0. */
    @Test
    void floatingPointNoiseIsNoChange() {
        double[] knee = {12.0, 12.0, 11.999999999999996, 6.0, 6.000000000000001, 6.0, 6.0};
        assertThat(ChangeDetection.detect(knee, ChangeOptions.DEFAULT).changePoints()).extracting(ChangePoint::index)
                .containsExactly(3);
        assertThat(ChangeDetection.detect(new double[] {0.1 + 0.2, 0.3, 0.3, 0.1 + 0.2, 0.3}, ChangeOptions.DEFAULT)
                .changePoints()).isEmpty();
    }

    @Test
    void aConstantSeriesHasNoChange() {
        assertThat(ChangeDetection.detect(new double[] {7, 7, 7, 7, 7, 7}, ChangeOptions.DEFAULT).changePoints())
                .isEmpty();
    }

    /** reference.R's Otava split: the change is found where it is, with R's t statistic and the means by hand. */
    @Test
    void aKnownSplitIsFoundWithRsStatistic() {
        double[] left = {100, 102, 99, 101, 100, 98, 101, 103, 100, 99};
        double[] right = {90, 91, 89, 92, 90, 88, 91, 90, 89, 91};
        double[] v = new double[20];
        System.arraycopy(left, 0, v, 0, 10);
        System.arraycopy(right, 0, v, 10, 10);
        var cps = ChangeDetection.detect(v, ChangeOptions.DEFAULT).changePoints();
        assertThat(cps).extracting(ChangePoint::index).containsExactly(10);
        ChangePoint cp = cps.getFirst();
        assertThat(cp.meanBefore()).isCloseTo(1003.0 / 10, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(cp.meanAfter()).isCloseTo(901.0 / 10, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(Math.abs(cp.tStatistic())).isCloseTo(dev.caplab.analysis.RReference.value("otava.t"),
                org.assertj.core.api.Assertions.withinPercentage(0.001));
        assertThat(cp.forwardChangePercent()).isCloseTo(100.0 * (90.1 - 100.3) / 100.3,
                org.assertj.core.api.Assertions.within(1e-9));
    }

    /**
     * Operating characteristics of the defaults (p &lt; 0.001, no minimum magnitude, segments of one run allowed) on
     * 5–30 runs, printed for analysis/README.md: flat noise gives a false change in at most 5 % of histories; a halving
     * in the middle is found exactly in at least 90 %; a halved newest run is found from 6 runs on; a single +30 %
     * outlier run (6 standard deviations) is almost never taken for a change.
     */
    @Test
    void defaultsSuitShortHistories() {
        System.out.println("runs  falseChange  halvedMidExact  minus20%MidExact  newestRunHalved  oneOutlierRun+30%");
        for (int n : LENGTHS) {
            int falseChange = 0, halved = 0, minus20 = 0, newestHalved = 0, outlier = 0;
            for (int seed = 0; seed < SEEDS; seed++) {
                double[] flat = noisy(new SplittableRandom(1_000L * n + seed), n, n, 1.0);
                falseChange += changes(flat) > 0 ? 1 : 0;
                halved += exactlyAt(noisy(new SplittableRandom(1_000L * n + seed), n, n / 2, 0.5), n / 2) ? 1 : 0;
                minus20 += exactlyAt(noisy(new SplittableRandom(1_000L * n + seed), n, n / 2, 0.8), n / 2) ? 1 : 0;
                newestHalved += exactlyAt(noisy(new SplittableRandom(1_000L * n + seed), n, n - 1, 0.5), n - 1) ? 1 : 0;
                double[] spike = flat.clone();
                spike[n / 2] *= 1.3;
                outlier += changes(spike) > 0 ? 1 : 0;
            }
            System.out.printf(Locale.ROOT, "%4d  %11.3f  %14.3f  %16.3f  %15.3f  %17.3f%n", n, rate(falseChange),
                    rate(halved), rate(minus20), rate(newestHalved), rate(outlier));
            assertThat(rate(falseChange)).as("false changes in %d runs", n).isLessThanOrEqualTo(0.05);
            assertThat(rate(halved)).as("halving found in %d runs", n).isGreaterThanOrEqualTo(0.90);
            assertThat(rate(outlier)).as("one outlier taken for a change in %d runs", n).isLessThanOrEqualTo(0.05);
            if (n >= 6) {
                assertThat(rate(newestHalved)).as("halved newest run of %d", n).isGreaterThanOrEqualTo(0.6);
            }
            if (n >= 10) {
                assertThat(rate(minus20)).as("a 20 %% drop found in %d runs", n).isGreaterThanOrEqualTo(0.8);
            }
        }
    }

    /** Level 100 with 5 % Gaussian noise; from {@code changeAt} on the level is multiplied by {@code factor}. */
    private static double[] noisy(SplittableRandom random, int n, int changeAt, double factor) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = 100 * (i >= changeAt ? factor : 1) * (1 + 0.05 * random.nextGaussian());
        }
        return v;
    }

    private static int changes(double[] v) {
        return ChangeDetection.detect(v, ChangeOptions.DEFAULT).changePoints().size();
    }

    private static boolean exactlyAt(double[] v, int index) {
        var cps = ChangeDetection.detect(v, ChangeOptions.DEFAULT).changePoints();
        return cps.size() == 1 && cps.getFirst().index() == index;
    }

    private static double rate(int count) {
        return count / (double) SEEDS;
    }
}
