package dev.caplab.analysis.cliff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.analysis.CapacityAnalysis;
import dev.caplab.analysis.FitOptions;
import dev.caplab.analysis.fit.StepPoint;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CliffDetectorTest {

    /** 12 steps, slope 0.5 up to x = 80 then 5 (10×): the segmented model's slope ratio names the cliff after 80. */
    @Test
    void segmentedKneeWithTenfoldSlopeIsACliff() {
        List<StepPoint> pts = new ArrayList<>();
        double[] noise = {0.3, -0.2, 0.1, -0.4, 0.2, 0.0, -0.1, 0.3, -0.3, 0.2, -0.2, 0.1};
        for (int i = 0; i < 12; i++) {
            double x = 10 * (i + 1);
            pts.add(StepPoint.of(x, 5 + 0.5 * x + 4.5 * Math.max(x - 80, 0) + noise[i]));
        }
        var fit = CapacityAnalysis.fitResource(pts, FitOptions.defaults("cpu.percent"));
        assertThat(fit.chosen().breakpoints()).hasSize(1);
        assertThat(fit.breakpointExistencePValue()).isLessThan(0.001);
        assertThat(fit.cliff().cliff()).isTrue();
        assertThat(fit.cliff().lastStableX()).isEqualTo(80);
        assertThat(fit.cliff().cliffX()).isEqualTo(90);
        assertThat(fit.cliff().slopeRatio()).isBetween(8.0, 12.0);
    }

    /**
     * A bend that flattens (sub-linear growth, report 000's amortisation) is not a cliff, nor a knee: the line over
     * every step is the fit, and the reason is said.
     */
    @Test
    void aFlatteningKneeIsNotACliff() {
        List<StepPoint> pts = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            double x = 10 * i;
            pts.add(StepPoint.of(x, 2 * Math.min(x, 50) + 0.2 * Math.max(x - 50, 0) + (i % 2 == 0 ? 0.2 : -0.2)));
        }
        var fit = CapacityAnalysis.fitResource(pts, FitOptions.defaults("cpu.percent"));
        assertThat(fit.chosen().breakpoints()).isEmpty();
        assertThat(fit.noKnee()).hasValueSatisfying(why -> assertThat(why).contains("growth slows"));
        assertThat(fit.cliff().cliff()).isFalse();
        assertThat(fit.preKneeSteps()).isEqualTo(10);
    }

    /**
     * The same bend at the node's ceiling is the resource running out: 2 cores per 50 users reach the 100-core ceiling
     * at 50 users (2·50 = 100 ≥ 0.9·100), so the break stands there and capacity uses the line before it.
     */
    @Test
    void aFlatteningAtTheCeilingIsTheKneeWhereTheResourceSaturated() {
        List<StepPoint> pts = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            double x = 10 * i;
            pts.add(StepPoint.of(x, 2 * Math.min(x, 50) + 0.2 * Math.max(x - 50, 0) + (i % 2 == 0 ? 0.2 : -0.2)));
        }
        var fit = CapacityAnalysis.fitResource(pts, FitOptions.defaults("cpu.percent").withCeiling(100));
        assertThat(fit.chosen().breakpoints()).singleElement()
                .satisfies(b -> assertThat(b.getX()).isCloseTo(50, org.assertj.core.api.Assertions.within(2.0)));
        assertThat(fit.noKnee()).isEmpty();
        // below the ceiling (200) the same bend is slower growth again, no knee
        assertThat(CapacityAnalysis.fitResource(pts, FitOptions.defaults("cpu.percent").withCeiling(200))
                .chosen().breakpoints()).isEmpty();
    }
}
