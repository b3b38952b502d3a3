package dev.caplab.analysis.fit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.Breakpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * Known breakpoints under Gaussian noise, recovered over many seeds. Design: 21 steps at x = 0, 5, …, 100,
 * y = 10 + 0.2x + Δ(x − ψ)₊ + ε, ε ~ N(0, 1).
 */
class SyntheticRecoveryTest {
    private static final int SEEDS = 200;

    private static StepSeries series(double psi, double delta, double sd, SplittableRandom rnd) {
        List<StepPoint> pts = new ArrayList<>();
        for (int x = 0; x <= 100; x += 5) {
            pts.add(StepPoint.of(x, 10 + 0.2 * x + delta * Math.max(x - psi, 0) + sd * rnd.nextGaussian()));
        }
        return StepSeries.collapse(pts, StepWeighting.EQUAL_PER_STEP);
    }

    /** Tolerance: |ψ̂ − ψ| ≤ 2 load units in ≥ 97 % of seeds, and the 95 % interval covers ψ in ≥ 88 % of them. */
    @Test
    void oneBreakpointRecoveredWithHonestIntervalsOver200Seeds() {
        int close = 0, covered = 0, chosenOne = 0;
        for (int seed = 0; seed < SEEDS; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            double psi = 30 + 40 * rnd.nextDouble(), delta = 1 + 2 * rnd.nextDouble();
            StepSeries s = series(psi, delta, 1.0, rnd);
            ModelFit f = new SegmentedModel(1).fit(s);
            Breakpoint b = f.breakpoints().getFirst();
            close += Math.abs(b.getX() - psi) <= 2 ? 1 : 0;
            covered += b.getLower95() <= psi && psi <= b.getUpper95() ? 1 : 0;
            chosenOne += ModelSelection.select(s, 2).chosen().breakpoints().size() == 1 ? 1 : 0;
        }
        assertThat(close).isGreaterThanOrEqualTo(194);
        assertThat(covered).isGreaterThanOrEqualTo(176);
        // BIC may occasionally prefer a second (spurious) breakpoint; it must pick one in the large majority.
        assertThat(chosenOne).isGreaterThanOrEqualTo(170);
    }

    /** Two breakpoints at 30 and 70 (slopes 0.2 → 1.7 → 0.2): both within 3 load units in ≥ 95 % of seeds. */
    @Test
    void twoBreakpointsRecoveredOver200Seeds() {
        int ok = 0;
        for (int seed = 0; seed < SEEDS; seed++) {
            SplittableRandom rnd = new SplittableRandom(1000 + seed);
            List<StepPoint> pts = new ArrayList<>();
            for (int x = 0; x <= 100; x += 4) {
                double y = 10 + 0.2 * x + 1.5 * Math.max(x - 30, 0) - 1.5 * Math.max(x - 70, 0);
                pts.add(StepPoint.of(x, y + rnd.nextGaussian()));
            }
            ModelFit f = new SegmentedModel(2).fit(StepSeries.collapse(pts, StepWeighting.EQUAL_PER_STEP));
            ok += Math.abs(f.breakpoints().get(0).getX() - 30) <= 3 && Math.abs(f.breakpoints().get(1).getX() - 70) <= 3 ? 1 : 0;
        }
        assertThat(ok).isGreaterThanOrEqualTo(190);
    }

    /** Under H₀ (a straight line) Davies' p-value is below 0.05 in at most 10 % of 200 seeds; under H₁ below 0.01 in ≥ 95 %. */
    @Test
    void daviesTestHoldsItsLevelAndHasPower() {
        int falseAlarms = 0, detected = 0;
        for (int seed = 0; seed < SEEDS; seed++) {
            SplittableRandom rnd = new SplittableRandom(5000 + seed);
            falseAlarms += DaviesTest.test(series(50, 0, 1.0, rnd)).pValue() < 0.05 ? 1 : 0;
            detected += DaviesTest.test(series(50, 1.0, 1.0, rnd)).pValue() < 0.01 ? 1 : 0;
        }
        assertThat(falseAlarms).isLessThanOrEqualTo(20);
        assertThat(detected).isGreaterThanOrEqualTo(190);
    }

    /** Linear data never yields a cliff (tolerance 25 % above the prediction), whatever the seed. */
    @Property(tries = 60, seed = "20260801")
    void straightLinesHaveNoCliff(@ForAll @LongRange(min = 0, max = 1_000_000) long seed,
                                  @ForAll @DoubleRange(min = 0.1, max = 2) double slope) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<StepPoint> pts = new ArrayList<>();
        for (int x = 10; x <= 100; x += 10) {
            pts.add(StepPoint.of(x, 20 + slope * x + rnd.nextGaussian()));
        }
        var fit = dev.caplab.analysis.CapacityAnalysis.fitResource(pts, dev.caplab.analysis.FitOptions.defaults("y"));
        assertThat(fit.cliff().cliff()).isFalse();
    }
}
