package dev.caplab.streams.fit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.Segment;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The EP19 1-vCPU node (seed 002): 10→26 %, 15→45 %, 17→47 %, 18→45 %, 19→88–103 % of one core. */
class FitAdapterTest {

    @Test
    void aCliffAtTheLastStepIsReportedWithThePreKneeLineNotALineThroughTheCliff() {
        double[][] steps = {{10, 0.26}, {15, 0.45}, {17, 0.47}, {18, 0.45}, {19, 0.955}};
        List<FitPoint> points = new java.util.ArrayList<>();
        for (int i = 0; i < steps.length; i++) {
            points.add(new FitPoint("lightnode-1c-node", "cpu.cores", i, steps[i][0], steps[i][1], 30));
        }
        CapacityFit fit = FitAdapter.fit("run-1vcpu", points, "sessions", OptionalDouble.of(1.0), 0.6, 0, 1).orElseThrow();

        assertThat(fit.getCliff()).isTrue();
        assertThat(fit.getSegments()).hasSize(1);
        Segment line = fit.getSegments().getFirst();
        // OLS over the four steps before the cliff, worked by hand: Sxy = 0.99, Sxx = 38.
        assertThat(line.getSlope()).isCloseTo(0.99 / 38, within(1e-6));
        assertThat(line.getIntercept()).isCloseTo(0.4075 - 15 * 0.99 / 38, within(1e-6));
        assertThat(line.getFromX()).isEqualTo(10);
        assertThat(line.getToX()).isEqualTo(18);
        // The report's reading: extrapolating 10–18 predicts about 48–55 % at 19 sessions.
        assertThat(line.getIntercept() + 19 * line.getSlope()).isBetween(0.48, 0.55);

        // The line's uncertainty, by hand: residual variance RSS / (4 − 2), Var(slope) = s² / Sxx,
        // Var(intercept) = s² (1/4 + x̄² / Sxx), the slope interval slope ± t(0.975, 2)·SE with t = 4.302653 (t table).
        double slope = 0.99 / 38, intercept = 0.4075 - 15 * slope, rss = 0;
        for (int i = 0; i < 4; i++) {
            rss += Math.pow(steps[i][1] - intercept - slope * steps[i][0], 2);
        }
        double s2 = rss / 2, slopeSe = Math.sqrt(s2 / 38);
        assertThat(line.getSlopeStdErr()).isCloseTo(slopeSe, within(1e-9));
        assertThat(line.getInterceptStdErr()).isCloseTo(Math.sqrt(s2 * (0.25 + 15 * 15 / 38.0)), within(1e-9));
        assertThat(line.getSlopeLower95()).isCloseTo(slope - 4.302653 * slopeSe, within(1e-6));
        assertThat(line.getSlopeUpper95()).isCloseTo(slope + 4.302653 * slopeSe, within(1e-6));
    }
}
