package dev.caplab.analysis.fit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.analysis.CapacityAnalysis;
import dev.caplab.analysis.FitOptions;
import dev.caplab.analysis.ResourceFit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Noise-free inputs: the sup-t statistic is 0/0 there unless residual variance is floored. */
class DaviesTestTest {

    private static final double[] XS = {10, 20, 30, 40, 50, 60, 70, 80};

    @Test
    void anExactStraightLineGivesNoEvidenceOfABreakpoint() {
        double[] ys = new double[XS.length];
        for (int i = 0; i < XS.length; i++) {
            ys[i] = 0.35 + 0.006 * XS[i];
        }
        ExistenceTest test = DaviesTest.test(StepSeries.of(XS, ys));
        assertThat(test.pValue()).isEqualTo(1.0);
    }

    @Test
    void aConstantGivesNoEvidenceOfABreakpoint() {
        double[] ys = new double[XS.length];
        java.util.Arrays.fill(ys, 2.0);
        assertThat(DaviesTest.test(StepSeries.of(XS, ys)).pValue()).isEqualTo(1.0);
    }

    @Test
    void aNoiseFreeBrokenLineIsDecisiveEvidence() {
        double[] ys = new double[XS.length];
        for (int i = 0; i < XS.length; i++) {
            ys[i] = 1 + 0.01 * XS[i] + (XS[i] > 45 ? 0.2 * (XS[i] - 45) : 0);
        }
        ExistenceTest test = DaviesTest.test(StepSeries.of(XS, ys));
        assertThat(test.pValue()).isLessThan(0.001);
        assertThat(test.bestBreakpointX()).isBetween(30.0, 60.0);
    }

    @Test
    void anExactLineStillFitsAsAResource() {
        List<StepPoint> points = new ArrayList<>();
        for (double x : XS) {
            points.add(StepPoint.of(x, 0.35 + 0.006 * x));
        }
        ResourceFit fit = CapacityAnalysis.fitResource(points, FitOptions.defaults("cpu.cores"));
        assertThat(fit.breakpointExistencePValue()).isEqualTo(1.0);
        assertThat(fit.breakpoints()).isEmpty();
    }
}
