package dev.caplab.analysis;

import static dev.caplab.analysis.RReference.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.caplab.analysis.cliff.CliffReason;
import dev.caplab.analysis.cliff.ExtrapolationError;
import dev.caplab.analysis.fit.LinearModel;
import dev.caplab.analysis.fit.StepPoint;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The field reports in shared/seeds, fitted end to end through {@link CapacityAnalysis#fitResource}. */
class SeedGoldenTest {

    /**
     * Report 000, LiveKit on a 10-vCPU Docker VM: steps 5×5, 10×10, 20×20, 30×30 with peak cores
     * 0.42, 1.55, 2.42, 6.46. x = successful subscriptions: subscribers × tracks seen = 50, 200, 800,
     * and 1,050 at 30×30 (the report's own count: 9 of 30 subscribers never connected).
     */
    @Test
    void liveKitIsLinearBeforeTheKneeWithACliffAtTheLastStep() {
        List<StepPoint> pts = List.of(StepPoint.of(50, 0.42), StepPoint.of(200, 1.55), StepPoint.of(800, 2.42),
                StepPoint.of(1050, 6.46));
        ResourceFit fit = CapacityAnalysis.fitResource(pts, FitOptions.defaults("cpu.cores").withCeiling(10));

        assertThat(fit.chosen().modelName()).isEqualTo(LinearModel.NAME);
        assertThat(fit.cliff().cliff()).isTrue();
        assertThat(fit.cliff().cliffX()).isEqualTo(1050);
        assertThat(fit.cliff().lastStableX()).isEqualTo(800);
        // One residual dof: the 95 % prediction interval reaches 15 cores, so the slope rule is what fires.
        assertThat(fit.cliff().reason()).isEqualTo(CliffReason.STEEP_LAST_SLOPE);
        assertThat(fit.cliff().slopeRatio()).isGreaterThan(6);
        assertThat(fit.preKneeSteps()).isEqualTo(3);
        // R lm on the three clean steps; tolerance 1e-6 relative (both are closed-form OLS).
        assertThat(fit.preKnee().base()).isCloseTo(value("livekit.base"), withinPercentage(1e-4));
        assertThat(fit.preKnee().slope()).isCloseTo(value("livekit.slope"), withinPercentage(1e-4));
        assertThat(fit.preKnee().slopeStdErr()).isCloseTo(value("livekit.slope.se"), withinPercentage(1e-4));
        ExtrapolationError e = fit.cliff().extrapolation().orElseThrow();
        assertThat(e.predicted()).isCloseTo(value("livekit.predict1050"), withinPercentage(1e-4));
        assertThat(e.predictedUpper()).isCloseTo(value("livekit.predict1050.upper95"), withinPercentage(1e-4));
        assertThat(e.measuredMean()).isEqualTo(6.46);
        // The report's rule: plan at 60 % of cores, never past the knee.
        assertThat(fit.capacity().orElseThrow().cappedByCliff()).isTrue();
        assertThat(fit.capacity().orElseThrow().safeX()).isEqualTo(800);
    }

    /** Report 002 §3.1, LightNode 1 vCPU: 10→26 %, 15→45 %, 17→47 %, 18→45 %, 19→88–103 %. */
    @Test
    void oneVcpuNodeBreaksBetween18And19() {
        List<StepPoint> pts = List.of(StepPoint.atStep(0, 10, 26), StepPoint.atStep(1, 15, 45),
                StepPoint.atStep(2, 17, 47), StepPoint.atStep(3, 18, 45), StepPoint.atStep(4, 19, 88),
                StepPoint.atStep(4, 19, 103));
        ResourceFit fit = CapacityAnalysis.fitResource(pts, FitOptions.defaults("cpu.percent").withCeiling(100));

        assertThat(fit.cliff().cliff()).isTrue();
        assertThat(fit.cliff().lastStableX()).isEqualTo(18);
        assertThat(fit.cliff().cliffX()).isEqualTo(19);
        ExtrapolationError e = fit.cliff().extrapolation().orElseThrow();
        // The report: "extrapolating the 10-18 slope would predict only about 48-55 %".
        assertThat(e.predicted()).isBetween(48.0, 55.0);
        assertThat(e.predicted()).isCloseTo(value("vcpu1.predict19"), withinPercentage(1e-4));
        assertThat(e.predictedLower()).isCloseTo(value("vcpu1.predict19.lower95"), withinPercentage(1e-4));
        assertThat(e.predictedUpper()).isCloseTo(value("vcpu1.predict19.upper95"), withinPercentage(1e-4));
        assertThat(e.measuredMin()).isEqualTo(88);
        assertThat(e.measuredMax()).isEqualTo(103);
        assertThat(e.measuredMin()).isGreaterThan(e.predictedUpper());
        assertThat(fit.preKnee().slope()).isCloseTo(value("vcpu1.slope"), withinPercentage(1e-4));
        assertThat(fit.existence()).isPresent();
        assertThat(fit.capacity().orElseThrow().safeX()).isCloseTo(18, within(1e-9));
    }
}
