package dev.caplab.demo;

import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.vocabulary.MetricNames;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.schema.event.Sample;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Seed 003's result table recomputed by summing each system's containers, traffic as delta over background. */
class JitsiBedrudRunsTest {

    // Golden data typed from seed 003, "Результаты": Jitsi 5/10/20, then Bedrud 5/10/20.
    private static final double[][] CPU_MEAN = {{18, 26, 45}, {17, 26, 44}};
    private static final double[][] CPU_PEAK = {{47, 42, 64}, {20, 30, 83}};
    private static final double[][] MEM_MB = {{491, 550, 586}, {134, 175, 248}};
    private static final double[][] EGRESS = {{1.3, 3.4, 7.3}, {14.9, 33.0, 60.5}};
    private static final double[][] INGRESS = {{1.0, 0.6, 0.5}, {6.4, 6.5, 7.0}};
    private static final List<List<String>> CONTAINERS = List.of(
            List.of("jitsi-web", "jitsi-prosody", "jitsi-jicofo", "jitsi-jvb"), List.of("bedrud", "livekit"));

    @Test
    void jitsiMeetMatchesTheReport() {
        check(DemoRuns.JITSI_MEET, "jitsi", 0);
    }

    @Test
    void bedrudMatchesTheReport() {
        check(DemoRuns.BEDRUD_LIVEKIT, "bedrud", 1);
    }

    private static void check(String runId, String system, int row) {
        DemoRun run = TestRuns.byId(runId);
        StepFigures f = new StepFigures(run);
        assertThat(run.runStarted().getEnvironment().getVcpu()).isEqualTo(5.0);
        assertThat(f.steps()).extracting(w -> w.load().get("participants")).containsExactly(5.0, 10.0, 20.0);
        Instant firstStep = f.step(0).start();
        double bgTx = StepFigures.rate(f.samples("gluek-server", MetricNames.NET_TX_BYTES, Instant.EPOCH,
                firstStep.minusNanos(1)));
        double bgRx = StepFigures.rate(f.samples("gluek-server", MetricNames.NET_RX_BYTES, Instant.EPOCH,
                firstStep.minusNanos(1)));
        for (int s = 0; s < 3; s++) {
            StepFigures.Window w = f.step(s);
            assertThat(StepFigures.seconds(w.start(), w.end())).isEqualTo(180);
            Predicate<Sample> ofSystem = x -> system.equals(x.getLabels().get(LabelNames.SYSTEM));
            List<Sample> cpu = f.samples(ofSystem.and(x -> x.getMetric().equals(MetricNames.CPU_CORES)), w.start(),
                    w.end());
            assertThat(cpu).extracting(Sample::getSource).containsAll(CONTAINERS.get(row));
            List<Double> cpuPercent = StepFigures.sumPerTimestamp(cpu).stream().map(c -> 100 * c).toList();
            assertThat(cpuPercent.stream().mapToDouble(Double::doubleValue).average().orElseThrow())
                    .as("%s mean CPU at %s", system, w.load()).isCloseTo(CPU_MEAN[row][s], within(0.5));
            assertThat(cpuPercent.stream().mapToDouble(Double::doubleValue).max().orElseThrow())
                    .as("%s peak CPU at %s", system, w.load()).isCloseTo(CPU_PEAK[row][s], within(0.5));
            List<Double> mem = StepFigures.sumPerTimestamp(f.samples(
                    ofSystem.and(x -> x.getMetric().equals(MetricNames.MEM_BYTES)), w.start(), w.end()));
            assertThat(mem.stream().mapToDouble(Double::doubleValue).average().orElseThrow() / StepFigures.MIB)
                    .isCloseTo(MEM_MB[row][s], within(1.0));
            double tx = StepFigures.rate(f.samples("gluek-server", MetricNames.NET_TX_BYTES, w.start(), w.end()));
            double rx = StepFigures.rate(f.samples("gluek-server", MetricNames.NET_RX_BYTES, w.start(), w.end()));
            assertThat((tx - bgTx) / StepFigures.MBIT_BYTES).isCloseTo(EGRESS[row][s], within(0.05));
            assertThat((rx - bgRx) / StepFigures.MBIT_BYTES).isCloseTo(INGRESS[row][s], within(0.05));
        }
    }

    @Test
    void dockerStatsSweepsEveryThreeToFiveSeconds() {
        DemoRun run = TestRuns.byId(DemoRuns.JITSI_MEET);
        List<Sample> jvb = run.samples().stream().filter(s -> s.getSource().equals("jitsi-jvb")
                && s.getMetric().equals(MetricNames.CPU_CORES)).toList();
        for (int i = 1; i < jvb.size(); i++) {
            assertThat(StepFigures.seconds(jvb.get(i - 1).getTimestamp(), jvb.get(i).getTimestamp()))
                    .isBetween(3.0, 5.0);
        }
    }
}
