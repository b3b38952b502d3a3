package dev.caplab.analysis.throughput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.analysis.CapacityAnalysis;
import dev.caplab.analysis.FitOptions;
import dev.caplab.analysis.ResourceFit;
import dev.caplab.analysis.fit.StepPoint;
import dev.caplab.schema.vocabulary.MetricNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The throughput limit of stepped runs whose request rate is known by construction. */
class ThroughputLimitTest {

    /** ±1 % alternating, so the residual variance is not zero (a perfect fit leaves Davies' test undefined). */
    private static double jitter(int step) {
        return step % 2 == 0 ? 1.01 : 0.99;
    }

    private static Optional<ThroughputLimit> limitOf(List<StepPoint> points) {
        ResourceFit fit = CapacityAnalysis.fitResource(points, FitOptions.defaults(MetricNames.THROUGHPUT_REQUESTS_PER_S));
        return ThroughputLimit.detect(fit.segments(), fit.breakpoints(), fit.breakpointExistencePValue());
    }

    @Test
    void rateThatPlateausAtAKnownLoadGivesAKneeWhoseIntervalHoldsIt() {
        // 4 requests/s per user up to 60 users (240/s), flat beyond: the server serves no more.
        List<StepPoint> points = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            double users = 10 * (i + 1);
            points.add(StepPoint.atStep(i, users, Math.min(4 * users, 240) * jitter(i)));
        }
        ThroughputLimit limit = limitOf(points).orElseThrow();
        assertThat(limit.kneeLower95()).isLessThanOrEqualTo(60);
        assertThat(limit.kneeUpper95()).isGreaterThanOrEqualTo(60);
        assertThat(limit.kneeX()).isCloseTo(60, within(5.0));
        assertThat(limit.plateauRatePerSecond()).as("240/s within the ±1 % jitter").isCloseTo(240, within(240 * 0.02));
        assertThat(limit.slopeBeforePerX()).isCloseTo(4, within(0.2));
        assertThat(limit.breakpointPValue()).isLessThan(0.05);
    }

    @Test
    void rateThatKeepsGrowingHasNoLimit() {
        List<StepPoint> points = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            double users = 10 * (i + 1);
            points.add(StepPoint.atStep(i, users, 4 * users * jitter(i)));
        }
        assertThat(limitOf(points)).isEmpty();
    }

    @Test
    void rateThatGrowsFasterAfterABreakIsNoLimit() {
        // convex: a break exists, but throughput did not stop growing
        List<StepPoint> points = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            double users = 10 * (i + 1);
            points.add(StepPoint.atStep(i, users, (users <= 50 ? users : 50 + 6 * (users - 50)) * jitter(i)));
        }
        assertThat(limitOf(points)).isEmpty();
    }

    @Test
    void generatorSaturatedAtOrAfterTheKneeIsTheLimit() {
        ThroughputLimit limit = new ThroughputLimit(60, 55, 65, 240, 4, 0, 0.001);
        List<GeneratorLimit.StepCpu> busyLate = List.of(new GeneratorLimit.StepCpu(50, 95),
                new GeneratorLimit.StepCpu(60, 88), new GeneratorLimit.StepCpu(70, 97));
        assertThat(GeneratorLimit.of(limit, busyLate)).contains(new GeneratorLimit(70, 97));
        // busy only before the knee's interval: the server, not the generator, stopped the rate
        assertThat(GeneratorLimit.of(limit, List.of(new GeneratorLimit.StepCpu(50, 95),
                new GeneratorLimit.StepCpu(70, 40)))).isEmpty();
    }
}
