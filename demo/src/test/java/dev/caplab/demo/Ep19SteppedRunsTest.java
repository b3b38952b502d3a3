package dev.caplab.demo;

import dev.caplab.schema.vocabulary.MetricNames;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.schema.event.Sample;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Seed 002 (EP19): step outcomes, CPU, memory and egress recomputed from /proc counters and /metrics scrapes. */
class Ep19SteppedRunsTest {

    private static final String LOADGEN = "whep-loadgen";

    private static DemoRun run(String id) {
        return TestRuns.byId(id);
    }

    /** The last passing step before the first failing one, from the generated failure and dropped-frame counters. */
    private static int maxStable(StepFigures figures) {
        int stable = -1;
        for (StepFigures.Window w : figures.steps()) {
            boolean failed = StepFigures.increase(figures.samples(LOADGEN, MetricNames.SESSION_CONNECT_FAILURES,
                    w.sustainedFrom(), w.end())) > 0
                    || StepFigures.increase(figures.samples(LOADGEN, MetricNames.FRAMES_DROPPED, w.sustainedFrom(),
                    w.end())) > 0
                    || StepFigures.min(figures.samples(LOADGEN, MetricNames.SESSIONS_CONNECTED, w.sustainedFrom(),
                    w.end())) < w.load().get("sessions");
            if (failed) {
                return stable;
            }
            stable = w.load().get("sessions").intValue();
        }
        return stable;
    }

    private static List<Double> cpuPercentPerInterval(StepFigures f, String host, StepFigures.Window w, boolean all) {
        // the sample at the step's start covers the interval before it
        List<Sample> cpu = f.samples(host, MetricNames.CPU_CORES, all ? w.start().plusNanos(1) : w.sustainedFrom(),
                w.end());
        return cpu.stream().map(s -> 100 * s.getValue()).toList();
    }

    private static double egressMbps(StepFigures f, String host, StepFigures.Window w) {
        return StepFigures.rate(f.samples(host, MetricNames.NET_TX_BYTES, w.sustainedFrom(), w.end()))
                / StepFigures.MBIT_BYTES;
    }

    private static double medianOf(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    @Test
    void firstStepIsATenMinuteSoakAndTheOthersRunTwoMinutes() {
        for (String id : List.of(DemoRuns.EP19_LIGHTNODE_2VCPU, DemoRuns.EP19_AWS_LIGHTSAIL_2VCPU)) {
            StepFigures f = new StepFigures(run(id));
            assertThat(f.step(0).load()).containsEntry("sessions", 12.0);
            assertThat(StepFigures.seconds(f.step(0).start(), f.step(0).end())).isEqualTo(600);
            assertThat(StepFigures.seconds(f.step(1).start(), f.step(1).end())).isEqualTo(120);
        }
    }

    @Test
    void lightNode2VcpuPasses50FailsAt75BoundByItsMeasuredEgress() {
        DemoRun run = run(DemoRuns.EP19_LIGHTNODE_2VCPU);
        StepFigures f = new StepFigures(run);
        assertThat(f.steps()).extracting(w -> w.load().get("sessions")).containsExactly(12.0, 25.0, 50.0, 75.0);
        assertThat(maxStable(f)).isEqualTo(50);
        assertThat(run.runStarted().getEnvironment().getNominalEgressMbps()).isEqualTo(1000.0);
        assertThat(run.runStarted().getEnvironment().getMeasuredEgressMbps()).isBetween(50.0, 106.0);
        String host = "lightnode-mnl-node";
        // the report's 2 vCPU line, "CPU% ≈ 15 + 0.97% × concurrency", below the failing step
        for (int i = 0; i < 3; i++) {
            double n = f.step(i).load().get("sessions");
            assertThat(medianOf(cpuPercentPerInterval(f, host, f.step(i), false)))
                    .isCloseTo(15 + 0.97 * n, within(2.0));
        }
        StepFigures.Window failing = f.step(3);
        List<Double> cpu = cpuPercentPerInterval(f, host, failing, true);
        assertThat(cpu.stream().mapToDouble(Double::doubleValue).max().orElseThrow()).isCloseTo(177, within(0.5));
        assertThat(cpu).anySatisfy(p -> assertThat(p).isCloseTo(134, within(0.5)));
        // egress pinned inside the measured 50-106 Mbit/s while CPU still has headroom on 2 cores
        List<Double> tx = StepFigures.intervalRates(f.samples(host, MetricNames.NET_TX_BYTES, failing.sustainedFrom(),
                failing.end())).stream().map(r -> r / StepFigures.MBIT_BYTES).toList();
        assertThat(tx).allSatisfy(m -> assertThat(m).isBetween(50.0, 106.0));
        assertThat(egressMbps(f, host, failing)).isGreaterThan(0.9 * 103);
        assertThat(medianOf(cpuPercentPerInterval(f, host, failing, false))).isLessThan(0.6 * 200);
    }

    @Test
    void awsLightsailPasses250FailsAt300OnMemory() {
        DemoRun run = run(DemoRuns.EP19_AWS_LIGHTSAIL_2VCPU);
        StepFigures f = new StepFigures(run);
        assertThat(f.steps()).extracting(w -> w.load().get("sessions"))
                .containsExactly(12.0, 25.0, 50.0, 75.0, 100.0, 150.0, 200.0, 250.0, 300.0);
        assertThat(maxStable(f)).isEqualTo(250);
        assertThat(run.runStarted().getEnvironment().getMeasuredEgressMbps()).isCloseTo(2400, within(1.0));
        String host = "lightsail-node";
        StepFigures.Window at250 = f.step(7);
        StepFigures.Window at300 = f.step(8);
        double available250 = StepFigures.median(f.samples(host, MetricNames.MEM_AVAILABLE_BYTES,
                at250.sustainedFrom(), at250.end())) / StepFigures.MIB;
        double available300 = StepFigures.min(f.samples(host, MetricNames.MEM_AVAILABLE_BYTES, at300.start(),
                at300.end())) / StepFigures.MIB;
        assertThat(available250).isCloseTo(289, within(2.0));
        assertThat(available300).isCloseTo(33, within(2.0));
        // neither egress nor CPU was near its ceiling when memory ran out
        assertThat(egressMbps(f, host, at300)).isLessThan(0.25 * 2400);
        assertThat(medianOf(cpuPercentPerInterval(f, host, at300, false))).isLessThan(0.8 * 200);
    }

    @Test
    void lightNode1VcpuJumpsFrom45To88To103WithinFifteenSecondsAt19() {
        DemoRun run = run(DemoRuns.EP19_LIGHTNODE_1VCPU);
        StepFigures f = new StepFigures(run);
        assertThat(f.steps()).extracting(w -> w.load().get("sessions")).containsExactly(10.0, 15.0, 17.0, 18.0, 19.0);
        assertThat(maxStable(f)).isEqualTo(18);
        String host = "lightnode-1c-node";
        double[] published = {26, 45, 47, 45};
        for (int i = 0; i < 4; i++) {
            List<Double> cpu = cpuPercentPerInterval(f, host, f.step(i), false);
            assertThat(medianOf(cpu)).as("step %s", f.step(i).load()).isCloseTo(published[i], within(1.5));
            assertThat(cpu.stream().mapToDouble(Double::doubleValue).average().orElseThrow())
                    .isCloseTo(published[i], within(0.5));
        }
        StepFigures.Window cliff = f.step(4);
        List<Sample> cpu = f.samples(host, MetricNames.CPU_CORES, cliff.start().plusNanos(1), cliff.end());
        List<Double> percent = cpuPercentPerInterval(f, host, cliff, true);
        int firstHigh = 0;
        while (percent.get(firstHigh) < 88 - 1e-9) {
            firstHigh++;
        }
        double secondsToJump = StepFigures.seconds(cliff.start(), cpu.get(firstHigh).getTimestamp());
        assertThat(secondsToJump).isLessThanOrEqualTo(15);
        assertThat(percent.subList(firstHigh, percent.size()))
                .allSatisfy(p -> assertThat(p).isBetween(88.0 - 1e-9, 103.0 + 1e-9));
        assertThat(percent.stream().mapToDouble(Double::doubleValue).max().orElseThrow()).isCloseTo(103, within(0.1));
        // extrapolating 10-18 would have predicted about 48-55%
        assertThat(medianOf(percent)).isGreaterThan(55 + 30);
        assertThat(StepFigures.increase(f.samples(LOADGEN, MetricNames.FRAMES_DROPPED, cliff.sustainedFrom(),
                cliff.end()))).isPositive();
    }
}
