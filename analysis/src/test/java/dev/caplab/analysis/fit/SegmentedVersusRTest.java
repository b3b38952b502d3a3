package dev.caplab.analysis.fit;

import static dev.caplab.analysis.RReference.fixture;
import static dev.caplab.analysis.RReference.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.Segment;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Breakpoints, slopes and intervals against R segmented 1.6.2 on the fixtures reference.R wrote.
 * Tolerance: estimates, standard errors and interval ends all within 1 % (the bar for
 * estimates; R and we linearise at the same optimum, so the intervals agree as closely).
 */
class SegmentedVersusRTest {

    @ParameterizedTest
    @CsvSource({"seg1,1,EQUAL_PER_STEP", "seg2,2,EQUAL_PER_STEP", "weighted,1,BY_SAMPLE_COUNT"})
    void breakpointsSlopesAndIntervalsMatchR(String name, int k, StepWeighting weighting) {
        StepSeries s = StepSeries.collapse(fixture(name), weighting);
        ModelFit fit = new SegmentedModel(k).fit(s);

        for (int j = 1; j <= k; j++) {
            Breakpoint b = fit.breakpoints().get(j - 1);
            assertThat(b.getX()).as(name + " psi" + j).isCloseTo(value(name + ".psi" + j), withinPercentage(1));
            assertThat(b.getStdErr()).as(name + " psi" + j + " se").isCloseTo(value(name + ".psi" + j + ".se"), withinPercentage(1));
            assertThat(b.getLower95()).isCloseTo(value(name + ".psi" + j + ".lower95"), withinPercentage(1));
            assertThat(b.getUpper95()).isCloseTo(value(name + ".psi" + j + ".upper95"), withinPercentage(1));
        }
        for (int j = 1; j <= k + 1; j++) {
            Segment seg = fit.segments().get(j - 1);
            assertThat(seg.getSlope()).as(name + " slope" + j).isCloseTo(value(name + ".slope" + j), withinPercentage(1));
            assertThat(seg.getSlopeStdErr()).as(name + " slope" + j + " se")
                    .isCloseTo(value(name + ".slope" + j + ".se"), withinPercentage(1));
            assertThat(seg.getIntercept()).as(name + " intercept" + j)
                    .isCloseTo(value(name + ".intercept" + j), withinPercentage(1));
        }
        assertThat(fit.rSquared()).isCloseTo(value(name + ".r2"), within(1e-4));
        assertThat(fit.bic()).as("BIC as R's BIC()").isCloseTo(value(name + ".bic"), within(0.05));
    }

    @ParameterizedTest
    @CsvSource({"seg1,EQUAL_PER_STEP", "seg2,EQUAL_PER_STEP", "weighted,BY_SAMPLE_COUNT"})
    void daviesTestMatchesR(String name, StepWeighting weighting) {
        ExistenceTest t = DaviesTest.test(StepSeries.collapse(fixture(name), weighting));
        double rp = value(name + ".davies.p");
        assertThat(Math.log10(t.pValue())).as("log10 p").isCloseTo(Math.log10(rp), within(0.05));
        assertThat(t.bestBreakpointX()).isCloseTo(value(name + ".davies.best"), within(1e-6));
    }

    @ParameterizedTest
    @CsvSource({"seg1,1", "seg2,2"})
    void bicChoosesTheSegmentedModelRChose(String name, int k) {
        SelectionResult r = ModelSelection.select(StepSeries.collapse(fixture(name), StepWeighting.EQUAL_PER_STEP), 2);
        assertThat(r.chosen().breakpoints()).hasSize(k);
        double linearBic = r.candidates().stream().filter(c -> c.modelName().equals("linear")).findFirst()
                .orElseThrow().bic();
        assertThat(linearBic).isCloseTo(value(name + ".bic.linear"), within(0.05));
    }
}
