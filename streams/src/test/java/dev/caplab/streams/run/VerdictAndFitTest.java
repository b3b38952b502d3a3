package dev.caplab.streams.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.AlertKind;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.streams.SyntheticRun;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.TopologySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Verdicts from SLO rules, live refits after every step, cliff and failure alerts, counter rates. */
class VerdictAndFitTest {

    private static final String RUN = "run-fit";
    @TempDir
    Path stateDir;

    static void pipe(TopologyFixture t, String runId) {
        for (SyntheticRun.Input in : SyntheticRun.inputs(runId)) {
            if (in.lifecycle() != null) {
                t.lifecycle(runId, in.lifecycle());
            } else {
                t.samples(runId, in.samples());
            }
        }
        t.advanceWallClock(Duration.ofSeconds(31));
    }

    @Test
    void steppedRunWithCliffGivesVerdictsFitsAndAlerts() {
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults(), stateDir)) {
            pipe(t, RUN);
            List<StepVerdict> verdicts = t.verdicts.readValuesToList();
            assertThat(verdicts).hasSize(SyntheticRun.STEPS);
            for (StepVerdict v : verdicts) {
                assertThat(v.getPassed()).as("step " + v.getStepIndex())
                        .isEqualTo(v.getStepIndex() < SyntheticRun.FIRST_FAILING_STEP);
            }
            List<Alert> alerts = t.alerts.readValuesToList();
            assertThat(alerts.stream().filter(a -> a.getKind() == AlertKind.STEP_FAILED).map(Alert::getStepIndex))
                    .containsExactly(5, 6, 7);

            List<CapacityFit> fits = t.fits.readValuesToList();
            CapacityFit cpu = fits.stream().filter(f -> f.getMetric().equals("cpu.cores")).reduce((a, b) -> b)
                    .orElseThrow();
            assertThat(cpu.getStepsUsed()).isEqualTo(SyntheticRun.STEPS);
            assertThat(cpu.getSegments().getFirst().getSlope()).as("pre-knee slope, cores per user")
                    .isCloseTo(SyntheticRun.CORES_PER_USER, within(0.01));
            assertThat(cpu.getCapacity()).isEqualTo(4.0);
            assertThat(fits.stream().filter(f -> f.getMetric().equals("cpu.cores")).map(CapacityFit::getStepsUsed))
                    .as("a refit per closing from the third step on; the last two steps close together, a grace after"
                            + " the run's samples stopped, and are refitted once").containsExactly(3, 4, 5, 6, 8);
            assertThat(cpu.getCliff()).isTrue();
            assertThat(alerts).anyMatch(a -> a.getKind() == AlertKind.CLIFF_DETECTED);

            StepAggregate tx = t.aggregates.readValuesToList().stream()
                    .filter(a -> a.getMetric().equals("net.tx.bytes") && a.getStepIndex() == 2).findFirst()
                    .orElseThrow();
            assertThat(tx.getRatePerSecond()).as("10 kB/s per user at 6 users").isCloseTo(60_000, within(1e-6));
            assertThat(tx.getSustained()).isCloseTo(60_000, within(1e-6));
        }
    }
}
