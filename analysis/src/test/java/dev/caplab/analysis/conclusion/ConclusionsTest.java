package dev.caplab.analysis.conclusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.analysis.capacity.CapacityPlan;
import dev.caplab.analysis.capacity.ResourceEstimate;
import dev.caplab.analysis.fit.LinearFit;
import dev.caplab.analysis.throughput.GeneratorLimit;
import dev.caplab.analysis.throughput.ThroughputLimit;
import dev.caplab.schema.vocabulary.MetricNames;
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
        return new ResourceEstimate("node", metric, line, 10, 40, ceiling, OptionalDouble.empty(),
                lastStableX.isPresent(), lastStableX.isPresent() ? OptionalInt.of(3) : OptionalInt.empty(),
                lastStableX);
    }

    @Test
    void aContaminatedFailingStepIsSkippedNotCountedAsTheFirstFailure() {
        // 10 pass, 20 fails but was contaminated (says nothing), 30 pass, 40 fails: max stable 30, first failure 40
        RunConclusion c = Conclusions.conclude(List.of(step(0, 10, StepStatus.PASSED, false),
                step(1, 20, StepStatus.FAILED, true), step(2, 30, StepStatus.PASSED, false),
                step(3, 40, StepStatus.FAILED, false)), List.of(), 0.6);
        assertThat(c.stable().maxStableX()).hasValue(30);
        assertThat(c.stable().lastPassing().orElseThrow().stepIndex()).isEqualTo(2);
        assertThat(c.stable().firstFailingX()).hasValue(40);
        assertThat(c.stable().firstFailing().orElseThrow().stepIndex()).isEqualTo(3);
        assertThat(c.stepsJudged()).isEqualTo(3);
        assertThat(c.stepsSkipped()).isEqualTo(1);
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
        RunConclusion c = Conclusions.conclude(List.of(step(0, 10, new ResourceUse("node", "cpu.cores", 1.9, 2), false)),
                List.of(estimate("cpu.cores", cpu, OptionalDouble.of(2), OptionalDouble.empty()),
                        estimate("net.tx.bytes", egress, OptionalDouble.of(100), OptionalDouble.empty()),
                        estimate("mem.bytes", cpu, OptionalDouble.empty(), OptionalDouble.empty())), 0.6);
        Bottleneck b = c.bottleneck().orElseThrow();
        assertThat(b.metric()).isEqualTo("net.tx.bytes");
        assertThat(b.rule()).isEqualTo(Bottleneck.Rule.SMALLEST_SAFE_CAPACITY);
        assertThat(b.value()).isCloseTo(120, within(1e-9));
        assertThat(b.stepIndex()).isEmpty();
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
                new ResourceEstimate("127.0.0.1:9100", "cpu.cores", host, 1, 4, OptionalDouble.of(2),
                        OptionalDouble.empty(), false, OptionalInt.empty(), OptionalDouble.empty()),
                new ResourceEstimate("srv", "cpu.cores", server, 1, 4, OptionalDouble.of(0.25),
                        OptionalDouble.empty(), false, OptionalInt.empty(), OptionalDouble.empty()));
        Bottleneck b = Conclusions.conclude(List.of(), fitted, 0.6).bottleneck().orElseThrow();
        assertThat(b.source()).isEqualTo("srv");
        assertThat(b.value()).isZero();
    }

    @Test
    void theThroughputFitIsNoResourceNeitherEstimateNorBottleneckNorInAPlan() {
        // cpu: (2·0.6 − 0.35)/0.006 = 141.67. The request rate's fit, even given a ceiling it never has (3000/s,
        // 20/s per x: 0.6·3000/20 = 90 < 141.67), would bind first if it were taken for a resource.
        LinearFit cpu = new LinearFit(0.35, 0.006, 0, 0, 0, 0, 2, 4, 1);
        LinearFit rate = new LinearFit(0, 20, 0, 0, 0, 0, 2, 4, 1);
        ResourceEstimate throughput = new ResourceEstimate(MetricNames.THROUGHPUT_SOURCE,
                MetricNames.THROUGHPUT_REQUESTS_PER_S, rate, 10, 40, OptionalDouble.of(3000), OptionalDouble.of(30),
                false, OptionalInt.empty(), OptionalDouble.empty());
        List<ResourceEstimate> fitted = List.of(throughput, estimate("cpu.cores", cpu, OptionalDouble.of(2),
                OptionalDouble.empty()));
        RunConclusion c = Conclusions.conclude(List.of(step(0, 10, StepStatus.PASSED, false)), fitted, 0.6);
        assertThat(c.bottleneck().orElseThrow().metric()).isEqualTo("cpu.cores");
        assertThat(c.bottleneck().orElseThrow().value()).isCloseTo(141.67, within(0.01));
        assertThat(c.resources()).extracting(ResourceEstimate::metric).containsExactly("cpu.cores");
        CapacityPlan plan = CapacityPlan.of(fitted, 0.6);
        assertThat(plan.resources()).extracting(p -> p.estimate().metric()).containsExactly("cpu.cores");
        assertThat(plan.bottleneck().orElseThrow().estimate().metric()).isEqualTo("cpu.cores");
        assertThat(c.throughputLimit()).isEmpty();
        assertThat(c.generatorLimit()).isEmpty();
    }

    @Test
    void theThroughputLimitIsCarriedAndTheGeneratorFlaggedFromTheStepsAtOrPastItsKneeInterval() {
        // knee at 60, 95 % interval 55–65: the generator was at 95 % at x = 50 (before the interval: the server's
        // plateau), 88 % at 60 (under 90 %), 97 % at 70 → the first saturated step at or past 55 is x = 70
        ThroughputLimit limit = new ThroughputLimit(60, 55, 65, 240, 4, 0, 0.001);
        List<StepJudgement> steps = List.of(generator(0, 50, 95), generator(1, 60, 88), generator(2, 70, 97),
                step(3, 80, StepStatus.PASSED, false));
        RunConclusion c = Conclusions.conclude(steps, List.of(), Optional.of(limit), 0.6);
        assertThat(c.throughputLimit()).contains(limit);
        assertThat(c.generatorLimit()).contains(new GeneratorLimit(70, 97));
        // the generator busy only before the interval: no flag, the limit stays
        RunConclusion server = Conclusions.conclude(List.of(generator(0, 50, 95), generator(1, 70, 40)), List.of(),
                Optional.of(limit), 0.6);
        assertThat(server.throughputLimit()).contains(limit);
        assertThat(server.generatorLimit()).isEmpty();
        // no limit, no flag however busy the generator was
        assertThat(Conclusions.conclude(steps, List.of(), Optional.empty(), 0.6).generatorLimit()).isEmpty();
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
        RunConclusion c = Conclusions.conclude(List.of(
                step(0, 10, new ResourceUse("node", "cpu.cores", 1.9, 2), true), step(1, 20, over, false)),
                List.of(), 0.6);
        Bottleneck b = c.bottleneck().orElseThrow();
        assertThat(b.rule()).isEqualTo(Bottleneck.Rule.FIRST_STEP_OVER_MARGIN);
        assertThat(b.metric()).isEqualTo("net.tx.bytes");
        assertThat(b.stepIndex()).hasValue(1);
        assertThat(b.value()).isCloseTo(0.70, within(1e-12));
        // below the margin nothing is a bottleneck: 1.1/2 = 0.55 and 50/100 = 0.5
        assertThat(Conclusions.stepBottleneck(List.of(new ResourceUse("node", "cpu.cores", 1.1, 2),
                new ResourceUse("node", "net.tx.bytes", 50, 100)), 0.6)).isEmpty();
    }

    @Test
    void theSafeCapacityCarriesItsDeltaMethodIntervalFromTheLinesCovariance() {
        // x_max = (2·0.6 − 0.5)/0.01 = 70; Var ŷ(70) = 4e-4 + 70²·1e-8 + 2·70·(−1e-6) = 3.09e-4, SE 0.0175784;
        // SE x_max = 0.0175784/0.01 = 1.75784; t(0.975, 3) = 3.182446 → half width 5.59421: [64.4058, 75.5942]
        LinearFit line = new LinearFit(0.5, 0.01, 4e-4, 1e-8, -1e-6, 0.01, 3, 5, 0.99);
        ResourceEstimate e = estimate("cpu.cores", line, OptionalDouble.of(2), OptionalDouble.empty());
        assertThat(e.capacityAt(0.6).orElseThrow().safeX()).isCloseTo(70, within(1e-9));
        assertThat(e.capacityAt(0.6).orElseThrow().xMaxStdErr()).isCloseTo(1.75784, within(1e-5));
        ResourceEstimate.Interval i = e.safeCapacityInterval95(0.6).orElseThrow();
        assertThat(i.lower()).isCloseTo(64.4058, within(1e-3));
        assertThat(i.upper()).isCloseTo(75.5942, within(1e-3));
    }

    @Test
    void aCliffCapsTheSafeCapacityAtTheLastStableXAndItHasNoInterval() {
        // x_max 70 lies beyond the last stable x 50 before the cliff: safe x is 50, a measured step
        LinearFit line = new LinearFit(0.5, 0.01, 4e-4, 1e-8, -1e-6, 0.01, 3, 5, 0.99);
        ResourceEstimate e = estimate("cpu.cores", line, OptionalDouble.of(2), OptionalDouble.of(50));
        assertThat(e.capacityAt(0.6).orElseThrow().safeX()).isEqualTo(50);
        assertThat(e.safeCapacityInterval95(0.6)).isEmpty();
        assertThat(Conclusions.conclude(List.of(), List.of(e), 0.6).bottleneck().orElseThrow().value()).isEqualTo(50);
    }
}
