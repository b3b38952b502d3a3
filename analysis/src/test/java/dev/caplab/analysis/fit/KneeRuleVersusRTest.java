package dev.caplab.analysis.fit;

import static dev.caplab.analysis.RReference.fixture;
import static dev.caplab.analysis.RReference.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.caplab.analysis.CapacityAnalysis;
import dev.caplab.analysis.FitOptions;
import dev.caplab.analysis.ResourceFit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which breaks are knees, decided on R segmented 1.6.2's own figures (reference.R): the Davies p-value and the
 * breakpoint's 95 % interval as R computes them say whether a knee stands (p &lt; 0.05, interval inside the tested
 * loads, slope rising), and caplab must say the same. Tolerance: Davies p within 0.05 in log10, interval ends
 * within 1 % of R's (SegmentedVersusRTest's bars).
 */
class KneeRuleVersusRTest {

    @ParameterizedTest
    @CsvSource({"seg1,true", "noknee,false", "edge,false", "saturating,false"})
    void aKneeStandsExactlyWhenRsFiguresSaySo(String name, boolean rSaysKnee) {
        StepSeries s = StepSeries.collapse(fixture(name), StepWeighting.EQUAL_PER_STEP);
        double lo = s.x(0);
        double hi = s.x(s.size() - 1);
        // the truth, from R alone
        double rP = value(name + ".davies.p");
        boolean rInside = value(name + ".psi1.lower95") >= lo && value(name + ".psi1.upper95") <= hi;
        boolean rRising = value(name + ".slope2") > value(name + ".slope1");
        assertThat(rP < 0.05 && rInside && rRising).as("the fixture is what its name says").isEqualTo(rSaysKnee);

        assertThat(Math.log10(DaviesTest.test(s).pValue())).isCloseTo(Math.log10(rP), within(0.05));
        ModelFit one = new SegmentedModel(1).fit(s);
        if (!name.equals("noknee")) { // R's noknee break sits on a step (96), where the estimate is not smooth
            assertThat(one.breakpoints().getFirst().getLower95()).isCloseTo(value(name + ".psi1.lower95"),
                    withinPercentage(1));
            assertThat(one.breakpoints().getFirst().getUpper95()).isCloseTo(value(name + ".psi1.upper95"),
                    withinPercentage(1));
        }

        ResourceFit fit = CapacityAnalysis.fitResource(fixture(name), FitOptions.defaults("cpu.cores"));
        if (rSaysKnee) {
            assertThat(fit.breakpoints()).hasSize(1);
            assertThat(fit.breakpoints().getFirst().getX()).isCloseTo(value(name + ".psi1"), withinPercentage(1));
            assertThat(fit.noKnee()).isEmpty();
            assertThat(KneeRule.rejection(one, DaviesTest.test(s).pValue(), s, KneeRule.Bend.STEEPER)).isEmpty();
        } else {
            assertThat(fit.breakpoints()).as("nothing to draw").isEmpty();
            assertThat(fit.chosen().modelName()).isEqualTo("linear");
            // whichever model BIC preferred, the one-break fit R made is refused, with the reason
            assertThat(KneeRule.rejection(one, DaviesTest.test(s).pValue(), s, KneeRule.Bend.STEEPER))
                    .hasValueSatisfying(why -> assertThat(why).startsWith(KneeRule.NO_KNEE));
        }
    }
}
