package dev.caplab.analysis.conclusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.analysis.capacity.CapacityPlan;
import dev.caplab.analysis.fit.LinearFit;
import dev.caplab.schema.event.BottleneckRule;
import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.schema.event.RunBottleneck;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunThroughputLimit;
import dev.caplab.schema.vocabulary.MetricNames;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The run conclusion's rules on hand-made steps and lines; every expected figure is worked out in the comments. */
class ConclusionsTest {

    private static StepJudgement step(int index, double x, StepStatus verdict, boolean contaminated) {
        return new StepJudgement(index, OptionalDouble.of(x), verdict, contaminated, Optional.empty());
    }

    private static StepJudgement step(int index, double x, ResourceUse overMargin, boolean contaminated) {
        return new StepJudgement(index, OptionalDouble.of(x), StepStatus.PASSED, contaminated, Optional.of(overMargin));
    }

    private static ResourceEstimate estimate(String metric, LinearFit line, OptionalDouble ceiling,
            OptionalDouble lastStableX) {
        return ResourceEstimates.of("node", metric, line, 10, 40, ceiling, OptionalDouble.empty(),
                lastStableX.isPresent(), lastStableX.isPresent() ? OptionalInt.of(3) : OptionalInt.empty(),
                lastStableX);
    }

    @Test
    void aContaminatedFailingStepIsSkippedNotCountedAsTheFirstFailure() {
        // 10 pass, 20 fails but was contaminated (says nothing), 30 pass, 40 fails: max stable 30, first failure 40
        RunConclusion.Builder c = Conclusions.conclude(List.of(step(0, 10, StepStatus.PASSED, false),
                step(1, 20, StepStatus.FAILED, true), step(2, 30, StepStatus.PASSED, false),
                step(3, 40, StepStatus.FAILED, false)), List.of(), 0.6);
        assertThat(c.getMaxStableX()).isEqualTo(30);
        assertThat(c.getMaxStableStepIndex()).isEqualTo(2);
        assertThat(c.getFirstFailingX()).isEqualTo(40);
        assertThat(c.getFirstFailingStepIndex()).isEqualTo(3);
        assertThat(c.getStepsJudged()).isEqualTo(3);
        assertThat(c.getStepsSkipped()).isEqualTo(1);
        assertThat(c.getModel()).isEqualTo("caplab-run-conclusion/1");
    }

    @Test
    void anUnjudgedStepIsSkippedAndStepsAreTakenInIndexOrder() {
        // given out of order: 0 pass at 10, 1 unjudged at 20, 2 fails at 30 → max stable 10 (step 0), failure at 30
        StableLoad s = Conclusions.maxStableLoad(List.of(step(2, 30, StepStatus.FAILED, false),
                step(1, 20, StepStatus.NOT_JUDGED, false), step(0, 10, StepStatus.PASSED, false)));
        assertThat(s.lastPassing().orElseThrow().stepIndex()).isZero();
        assertThat(s.firstFailing().orElseThrow().stepIndex()).isEqualTo(2);
    }

    @Test
    void aStepsStatusIsContaminatedOverItsVerdictThenNotJudgedThenPendingThenPassOrFail() {
        // the words the run page and the report show (app.js, report "Steps and verdicts")
        assertThat(StepStatus.of(true, true, false).word()).isEqualTo("contaminated");
        assertThat(StepStatus.of(false, false, null).word()).isEqualTo("not judged");
        assertThat(StepStatus.of(false, true, null).word()).as("no verdict yet: never a pass").isEqualTo("pending");
        assertThat(StepStatus.of(false, true, true).word()).isEqualTo("pass");
        assertThat(StepStatus.of(false, true, false).word()).isEqualTo("fail");
        assertThat(step(0, 10, StepStatus.FAILED, true).status()).isEqualTo(StepStatus.CONTAMINATED);
        assertThat(step(0, 10, StepStatus.NOT_JUDGED, false).status()).isEqualTo(StepStatus.NOT_JUDGED);
        assertThatThrownBy(() -> step(0, 10, StepStatus.PENDING, false)).as("a closed step has a verdict")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("step 0");
    }

    @Test
    void noFailureLeavesTheMaxStableLoadAsALowerBoundAndAFirstFailureLeavesNone() {
        assertThat(Conclusions.maxStableLoad(List.of(step(0, 10, StepStatus.PASSED, false))).firstFailing()).isEmpty();
        StableLoad failedAtOnce = Conclusions.maxStableLoad(List.of(step(0, 10, StepStatus.FAILED, false),
                step(1, 20, StepStatus.PASSED, false)));
        assertThat(failedAtOnce.maxStableX()).isEmpty();
        assertThat(failedAtOnce.firstFailingX()).hasValue(10);
    }

    @Test
    void theBottleneckIsTheFittedResourceWithTheSmallestSafeCapacity() {
        // cpu: (2·0.6 − 0.35)/0.006 = 141.67; egress: (100·0.6 − 0)/0.5 = 120 → egress; memory has no ceiling
        LinearFit cpu = new LinearFit(0.35, 0.006, 0, 0, 0, 0, 2, 4, 1);
        LinearFit egress = new LinearFit(0, 0.5, 0, 0, 0, 0, 2, 4, 1);
        RunConclusion.Builder c = Conclusions.conclude(
                List.of(step(0, 10, new ResourceUse("node", "cpu.cores", 1.9, 2), false)),
                List.of(estimate("cpu.cores", cpu, OptionalDouble.of(2), OptionalDouble.empty()),
                        estimate("net.tx.bytes", egress, OptionalDouble.of(100), OptionalDouble.empty()),
                        estimate("mem.bytes", cpu, OptionalDouble.empty(), OptionalDouble.empty())), 0.6);
        RunBottleneck b = c.getBottleneck();
        assertThat(b.getMetric()).isEqualTo("net.tx.bytes");
        assertThat(b.getRule()).isEqualTo(BottleneckRule.SMALLEST_SAFE_CAPACITY);
        assertThat(b.getValue()).isCloseTo(120, within(1e-9));
        assertThat(b.getStepIndex()).isNull();
        // every resource at the margin, in (metric, source) order; memory has no ceiling, so no safe capacity
        assertThat(c.getResources()).extracting(ResourceEstimate::getMetric)
                .containsExactly("cpu.cores", "mem.bytes", "net.tx.bytes");
        assertThat(c.getResources().get(0).getSafeCapacityX()).isCloseTo(141.667, within(0.001));
        assertThat(c.getResources().get(1).getSafeCapacityX()).isNull();
        assertThat(c.getResources().get(1).getCappedByCliff()).isFalse();
        assertThat(c.getResources().get(2).getSafeCapacityX()).isCloseTo(120, within(1e-9));
    }

    @Test
    void ofResourcesAlreadyPastTheMarginAtTheLightestLoadTheOneFurthestPastItsCeilingIsTheBottleneck() {
        // The CI's SourceRolesIT run: a host at 1.22 + 0.065·x of 2 cores, a server at 0.4025 + 0.1735·x of a
        // 0.25-vCPU share, loads 1..4. Both are past C·0.6 at x = 1 (1.285 > 1.2, 0.576 > 0.15): both safe
        // capacities clip to 0. At x = 1 the host uses 1.285/2 = 0.64 of its ceiling, the server 0.576/0.25 = 2.30:
        // the server ran out first, although the host comes first in (metric, source) order.
        LinearFit host = new LinearFit(1.22, 0.065, 0, 0, 0, 0, 2, 4, 1);
        LinearFit server = new LinearFit(0.4025, 0.1735, 0, 0, 0, 0, 2, 4, 1);
        List<ResourceEstimate> fitted = List.of(
                ResourceEstimates.of("127.0.0.1:9100", "cpu.cores", host, 1, 4, OptionalDouble.of(2),
                        OptionalDouble.empty(), false, OptionalInt.empty(), OptionalDouble.empty()),
                ResourceEstimates.of("srv", "cpu.cores", server, 1, 4, OptionalDouble.of(0.25),
                        OptionalDouble.empty(), false, OptionalInt.empty(), OptionalDouble.empty()));
        RunBottleneck b = Conclusions.conclude(List.of(), fitted, 0.6).getBottleneck();
        assertThat(b.getSource()).isEqualTo("srv");
        assertThat(b.getValue()).isZero();
    }

    @Test
    void theThroughputFitIsNoResourceNeitherEstimateNorBottleneckNorInAPlan() {
        // cpu: (2·0.6 − 0.35)/0.006 = 141.67. The request rate's fit, even given a ceiling it never has (3000/s,
        // 20/s per x: 0.6·3000/20 = 90 < 141.67), would bind first if it were taken for a resource.
        LinearFit cpu = new LinearFit(0.35, 0.006, 0, 0, 0, 0, 2, 4, 1);
        LinearFit rate = new LinearFit(0, 20, 0, 0, 0, 0, 2, 4, 1);
        ResourceEstimate throughput = ResourceEstimates.of(MetricNames.THROUGHPUT_SOURCE,
                MetricNames.THROUGHPUT_REQUESTS_PER_S, rate, 10, 40, OptionalDouble.of(3000), OptionalDouble.of(30),
                false, OptionalInt.empty(), OptionalDouble.empty());
        List<ResourceEstimate> fitted = List.of(throughput, estimate("cpu.cores", cpu, OptionalDouble.of(2),
                OptionalDouble.empty()));
        RunConclusion.Builder c = Conclusions.conclude(List.of(step(0, 10, StepStatus.PASSED, false)), fitted, 0.6);
        assertThat(c.getBottleneck().getMetric()).isEqualTo("cpu.cores");
        assertThat(c.getBottleneck().getValue()).isCloseTo(141.67, within(0.01));
        assertThat(c.getResources()).extracting(ResourceEstimate::getMetric).containsExactly("cpu.cores");
        CapacityPlan plan = CapacityPlan.of(fitted.stream().flatMap(e -> ResourceEstimates.placed(e, 0.6).stream())
                .toList(), 0.6);
        assertThat(plan.resources()).extracting(CapacityPlan.Placed::metric).containsExactly("cpu.cores");
        assertThat(plan.bottleneck().orElseThrow().metric()).isEqualTo("cpu.cores");
        assertThat(c.hasThroughputLimitBuilder() || c.getThroughputLimit() != null).isFalse();
    }

    @Test
    void theThroughputLimitIsCarriedAndTheGeneratorFlaggedFromTheStepsAtOrPastItsKneeInterval() {
        // knee at 60, 95 % interval 55–65: the generator was at 95 % at x = 50 (before the interval: the server's
        // plateau), 88 % at 60 (under 90 %), 97 % at 70 → the first saturated step at or past 55 is x = 70
        RunThroughputLimit limit = limit(55.0);
        List<StepJudgement> steps = List.of(generator(0, 50, 95), generator(1, 60, 88), generator(2, 70, 97),
                step(3, 80, StepStatus.PASSED, false));
        RunThroughputLimit.Builder c = Conclusions.conclude(steps, List.of(), Optional.of(limit), 0.6)
                .getThroughputLimitBuilder();
        assertThat(List.of(c.getKneeX(), c.getKneeLower95(), c.getKneeUpper95(), c.getPlateauRatePerSecond(),
                c.getSlopeBeforePerX(), c.getSlopeAfterPerX(), c.getBreakpointPValue()))
                .containsExactly(60.0, 55.0, 65.0, 240.0, 4.0, 0.0, 0.001);
        assertThat(c.getStepsUsed()).as("the fit's").isEqualTo(9);
        assertThat(c.getFittedAt()).isEqualTo(Instant.parse("2026-12-03T19:41:00Z"));
        assertThat(c.getGeneratorSaturatedAtX()).isEqualTo(70);
        assertThat(c.getGeneratorCpuPercent()).isEqualTo(97);
        // the generator busy only before the interval: no flag, the limit stays
        RunThroughputLimit.Builder server = Conclusions.conclude(List.of(generator(0, 50, 95), generator(1, 70, 40)),
                List.of(), Optional.of(limit), 0.6).getThroughputLimitBuilder();
        assertThat(server.getKneeX()).isEqualTo(60);
        assertThat(server.getGeneratorSaturatedAtX()).isNull();
        assertThat(server.getGeneratorCpuPercent()).isNull();
        // no limit, no flag however busy the generator was
        RunConclusion.Builder none = Conclusions.conclude(steps, List.of(), Optional.empty(), 0.6);
        assertThat(none.hasThroughputLimitBuilder() || none.getThroughputLimit() != null).isFalse();
        // an unknown interval end stays null; the generator is then looked for from the knee (60): 97 % at 70
        RunThroughputLimit.Builder unknown = Conclusions.conclude(steps, List.of(), Optional.of(limit(null)), 0.6)
                .getThroughputLimitBuilder();
        assertThat(unknown.getKneeLower95()).isNull();
        assertThat(unknown.getGeneratorSaturatedAtX()).isEqualTo(70);
        assertThat(limit.getGeneratorSaturatedAtX()).as("the fit's limit is not changed").isNull();
    }

    /** A knee at 60 (95 % interval lower95–65), 240/s, 4/s per x before it and flat after, of a 9-step fit. */
    private static RunThroughputLimit limit(Double lower95) {
        return RunThroughputLimit.newBuilder().setKneeX(60).setKneeLower95(lower95).setKneeUpper95(65.0)
                .setPlateauRatePerSecond(240).setSlopeBeforePerX(4).setSlopeAfterPerX(0).setBreakpointPValue(0.001)
                .setStepsUsed(9).setFittedAt(Instant.parse("2026-12-03T19:41:00Z")).build();
    }

    private static StepJudgement generator(int index, double x, double cpuPercent) {
        return new StepJudgement(index, OptionalDouble.of(x), StepStatus.PASSED, false, Optional.empty(),
                OptionalDouble.of(cpuPercent));
    }

    @Test
    void withoutAFittedCeilingTheFirstUncontaminatedStepOverTheMarginNamesIt() {
        // step 0 is contaminated (its cpu says nothing); step 1: cpu 1.3/2 = 0.65 and egress 70/100 = 0.70 → egress
        List<ResourceUse> step1 = List.of(new ResourceUse("node", "cpu.cores", 1.3, 2),
                new ResourceUse("node", "net.tx.bytes", 70, 100));
        ResourceUse over = Conclusions.stepBottleneck(step1, 0.6).orElseThrow();
        assertThat(over.metric()).isEqualTo("net.tx.bytes");
        RunConclusion.Builder c = Conclusions.conclude(List.of(
                step(0, 10, new ResourceUse("node", "cpu.cores", 1.9, 2), true), step(1, 20, over, false)),
                List.of(), 0.6);
        RunBottleneck b = c.getBottleneck();
        assertThat(b.getRule()).isEqualTo(BottleneckRule.FIRST_STEP_OVER_MARGIN);
        assertThat(b.getMetric()).isEqualTo("net.tx.bytes");
        assertThat(b.getStepIndex()).isEqualTo(1);
        assertThat(b.getValue()).isCloseTo(0.70, within(1e-12));
        // below the margin nothing is a bottleneck: 1.1/2 = 0.55 and 50/100 = 0.5
        assertThat(Conclusions.stepBottleneck(List.of(new ResourceUse("node", "cpu.cores", 1.1, 2),
                new ResourceUse("node", "net.tx.bytes", 50, 100)), 0.6)).isEmpty();
    }

    @Test
    void theSafeCapacityCarriesItsDeltaMethodIntervalFromTheLinesCovariance() {
        // x_max = (2·0.6 − 0.5)/0.01 = 70; Var ŷ(70) = 4e-4 + 70²·1e-8 + 2·70·(−1e-6) = 3.09e-4, SE 0.0175784;
        // SE x_max = 0.0175784/0.01 = 1.75784; t(0.975, 3) = 3.182446 → half width 5.59421: [64.4058, 75.5942]
        LinearFit line = new LinearFit(0.5, 0.01, 4e-4, 1e-8, -1e-6, 0.01, 3, 5, 0.99);
        ResourceEstimate e = ResourceEstimates.atMargin(
                estimate("cpu.cores", line, OptionalDouble.of(2), OptionalDouble.empty()), 0.6);
        assertThat(e.getSafeCapacityX()).isCloseTo(70, within(1e-9));
        assertThat(e.getSafeCapacityStdErr()).isCloseTo(1.75784, within(1e-5));
        assertThat(e.getSafeCapacityLower95()).isCloseTo(64.4058, within(1e-3));
        assertThat(e.getSafeCapacityUpper95()).isCloseTo(75.5942, within(1e-3));
        assertThat(e.getCappedByCliff()).isFalse();
    }

    @Test
    void aCliffCapsTheSafeCapacityAtTheLastStableXAndItHasNoInterval() {
        // x_max 70 lies beyond the last stable x 50 before the cliff: safe x is 50, a measured step
        LinearFit line = new LinearFit(0.5, 0.01, 4e-4, 1e-8, -1e-6, 0.01, 3, 5, 0.99);
        ResourceEstimate e = estimate("cpu.cores", line, OptionalDouble.of(2), OptionalDouble.of(50));
        ResourceEstimate atMargin = ResourceEstimates.atMargin(e, 0.6);
        assertThat(atMargin.getSafeCapacityX()).isEqualTo(50);
        assertThat(atMargin.getCappedByCliff()).isTrue();
        assertThat(atMargin.getSafeCapacityLower95()).isNull();
        assertThat(atMargin.getSafeCapacityUpper95()).isNull();
        assertThat(Conclusions.conclude(List.of(), List.of(e), 0.6).getBottleneck().getValue()).isEqualTo(50);
    }

    @Test
    void unknownFiguresAreStoredAsNullAndAResourceThatDoesNotGrowHasNoSafeCapacity() {
        // two steps: no residual degrees of freedom, so the variances and σ are unknown (NaN); slope 0: the resource
        // does not grow with load, x_max = +∞ with an undefined SE
        LinearFit flat = new LinearFit(0.5, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, 2, Double.NaN);
        ResourceEstimate e = ResourceEstimates.atMargin(
                estimate("cpu.cores", flat, OptionalDouble.of(2), OptionalDouble.empty()), 0.6);
        assertThat(Arrays.asList(e.getInterceptVariance(), e.getSlopeVariance(), e.getCovariance(),
                e.getResidualStdErr(), e.getRSquared(), e.getSafeCapacityX(), e.getSafeCapacityStdErr(),
                e.getSafeCapacityLower95(), e.getSafeCapacityUpper95())).containsOnlyNulls();
        assertThat(e.getCeiling()).isEqualTo(2);
        // read back, the line carries the unknown figures as NaN again
        LinearFit back = ResourceEstimates.preKnee(e);
        assertThat(back.baseVariance()).isNaN();
        assertThat(back.rSquared()).isNaN();
        assertThat(back.base()).isEqualTo(0.5);
        assertThat(Conclusions.conclude(List.of(), List.of(e), 0.6).getBottleneck()).as("nothing grows").isNull();
    }

    @Test
    void anEstimateAWarningAndTheMarginAreCheckedWhereTheyAreMade() {
        LinearFit line = new LinearFit(0.5, 0.01, 4e-4, 1e-8, -1e-6, 0.01, 3, 5, 0.99);
        assertThatThrownBy(() -> ResourceEstimates.of("node", "cpu.cores", line, 40, 10, OptionalDouble.of(2),
                OptionalDouble.empty(), false, OptionalInt.empty(), OptionalDouble.empty()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cpu.cores@node: fromX 40.0 > toX");
        assertThatThrownBy(() -> ResourceEstimates.of("node", "cpu.cores", line, 10, 40, OptionalDouble.of(2),
                OptionalDouble.empty(), true, OptionalInt.of(3), OptionalDouble.empty()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a cliff needs the last stable x");
        assertThatThrownBy(() -> RunWarningKind.NO_STEP.warning(" "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NO_STEP");
        assertThat(RunWarningKind.NO_STEP.warning("hold each level longer").getKind()).isEqualTo("NO_STEP");
        assertThatThrownBy(() -> Conclusions.conclude(List.of(), List.of(), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("margin");
    }
}
