package dev.caplab.analysis.throughput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.analysis.CapacityAnalysis;
import dev.caplab.analysis.FitOptions;
import dev.caplab.analysis.ResourceFit;
import dev.caplab.analysis.fit.Pieces;
import dev.caplab.analysis.fit.StepPoint;
import dev.caplab.schema.event.RunThroughputLimit;
import dev.caplab.schema.vocabulary.MetricNames;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The throughput limit of stepped runs whose request rate is known by construction. */
class ThroughputLimitsTest {

    private static final Instant FITTED_AT = Instant.parse("2026-12-03T19:41:00Z");

    /** ±1 % alternating, so the residual variance is not zero (a perfect fit leaves Davies' test undefined). */
    private static double jitter(int step) {
        return step % 2 == 0 ? 1.01 : 0.99;
    }

    private static Optional<RunThroughputLimit> limitOf(List<StepPoint> points) {
        ResourceFit fit = CapacityAnalysis.fitResource(points, FitOptions.defaults(MetricNames.THROUGHPUT_REQUESTS_PER_S));
        return ThroughputLimits.detect(fit.segments(), fit.breakpoints(), fit.breakpointExistencePValue(),
                fit.stepCount(), FITTED_AT);
    }

    @Test
    void rateThatPlateausAtAKnownLoadGivesAKneeWhoseIntervalHoldsIt() {
        // 4 requests/s per user up to 60 users (240/s), flat beyond: the server serves no more.
        List<StepPoint> points = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            double users = 10 * (i + 1);
            points.add(StepPoint.atStep(i, users, Math.min(4 * users, 240) * jitter(i)));
        }
        RunThroughputLimit limit = limitOf(points).orElseThrow();
        assertThat(limit.getKneeLower95()).isLessThanOrEqualTo(60);
        assertThat(limit.getKneeUpper95()).isGreaterThanOrEqualTo(60);
        assertThat(limit.getKneeX()).isCloseTo(60, within(5.0));
        assertThat(limit.getPlateauRatePerSecond()).as("240/s within the ±1 % jitter")
                .isCloseTo(240, within(240 * 0.02));
        assertThat(limit.getSlopeBeforePerX()).isCloseTo(4, within(0.2));
        assertThat(limit.getBreakpointPValue()).isLessThan(0.05);
        assertThat(limit.getStepsUsed()).as("the ten steps").isEqualTo(10);
        assertThat(limit.getFittedAt()).isEqualTo(FITTED_AT);
        assertThat(limit.getGeneratorSaturatedAtX()).as("the conclusion's to decide").isNull();
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
    void unknownFiguresOfABreakAreNullAndThePlateauIsTheRateAfterItAtTheKnee() {
        // rising 4/s per x to the knee at 60 (240/s), then 0.5/s per x: 0.5 <= 0.25 * 4, a plateau
        var before = Pieces.segment(10, 60, 0, Double.NaN, 4, 0.1, Double.NaN, Double.NaN);
        var after = Pieces.segment(60, 100, 210, Double.NaN, 0.5, 0.1, Double.NaN, Double.NaN);
        RunThroughputLimit limit = ThroughputLimits.detect(List.of(before, after),
                List.of(Pieces.breakpoint(60, Double.NaN, Double.NaN, Double.NaN)), Double.NaN, 9, FITTED_AT)
                .orElseThrow();
        assertThat(limit.getPlateauRatePerSecond()).as("210 + 0.5 * 60").isEqualTo(240.0);
        assertThat(limit.getSlopeBeforePerX()).isEqualTo(4.0);
        assertThat(limit.getSlopeAfterPerX()).isEqualTo(0.5);
        assertThat(limit.getKneeLower95()).isNull();
        assertThat(limit.getKneeUpper95()).isNull();
        assertThat(limit.getBreakpointPValue()).isNull();
        // a significant break needs p <= 0.05
        assertThat(ThroughputLimits.detect(List.of(before, after),
                List.of(Pieces.breakpoint(60, 1, 58, 62)), 0.2, 9, FITTED_AT)).isEmpty();
    }

    @Test
    void generatorSaturatedAtOrAfterTheKneeIsTheLimit() {
        RunThroughputLimit limit = RunThroughputLimit.newBuilder().setKneeX(60).setKneeLower95(55.0)
                .setKneeUpper95(65.0).setPlateauRatePerSecond(240).setSlopeBeforePerX(4).setSlopeAfterPerX(0)
                .setBreakpointPValue(0.001).setStepsUsed(9).setFittedAt(FITTED_AT).build();
        List<GeneratorLimit.StepCpu> busyLate = List.of(new GeneratorLimit.StepCpu(50, 95),
                new GeneratorLimit.StepCpu(60, 88), new GeneratorLimit.StepCpu(70, 97));
        assertThat(GeneratorLimit.of(limit, busyLate)).contains(new GeneratorLimit(70, 97));
        // busy only before the knee's interval: the server, not the generator, stopped the rate
        assertThat(GeneratorLimit.of(limit, List.of(new GeneratorLimit.StepCpu(50, 95),
                new GeneratorLimit.StepCpu(70, 40)))).isEmpty();
    }
}
