package dev.caplab.streams.run;

import static dev.caplab.streams.Events.gauge;
import static dev.caplab.streams.Events.sample;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.schema.event.AlertKind;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.streams.Events;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.step.StepWindow;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Steps inferred from k6 vus, counter rates with resets, label-group sums, contamination. */
class InferenceGroupingContaminationTest {

    @TempDir
    Path stateDir;

    @Test
    void stepsAreInferredFromVusWhenARunHasNoStepEvents() {
        String run = "run-k6";
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults(), stateDir)) {
            t.lifecycle(run, Events.runStarted(run, "vus", List.of(), 4));
            List<Sample> batch = new ArrayList<>();
            for (int s = 0; s < 90; s++) {
                double vus = s < 30 ? 10 : s == 30 ? 15 : s < 60 ? 20 : 40; // one-second ramp at 15
                batch.add(gauge("k6", "vus", s, vus));
                batch.add(gauge("k6", "http_req_duration", s, vus * 3));
            }
            t.samples(run, batch);
            t.lifecycle(run, Events.runEnded(run, 90));
            t.samples(run, List.of(gauge("k6", "vus", 121, 0)));

            List<StepAggregate> out = t.aggregates.readValuesToList();
            List<StepAggregate> latency = out.stream().filter(a -> a.getMetric().equals("http_req_duration")
                    && a.getStepIndex() >= 0).toList();
            assertThat(latency).extracting(StepAggregate::getX).containsExactly(10.0, 20.0, 40.0);
            assertThat(latency).extracting(StepAggregate::getCount).containsExactly(30L, 29L, 30L);
            assertThat(latency.getFirst().getWarmupCount()).as("default inferred warm-up 10 s").isEqualTo(10);
            assertThat(latency.get(1).getLoad()).containsEntry("vus", 20.0);
            StepAggregate ramp = out.stream().filter(a -> a.getMetric().equals("http_req_duration")
                    && a.getStepIndex() == StepWindow.UNASSIGNED_INDEX).findFirst().orElseThrow();
            assertThat(ramp.getCount()).as("the ramp second stays unassigned").isEqualTo(1);
        }
    }

    @Test
    void countersBecomeRatesAcrossResetsAndLabelGroupsAreSummed() {
        String run = "run-groups";
        TopologySettings settings = TopologySettings.defaults().withGroupLabels(List.of("system"));
        try (TopologyFixture t = new TopologyFixture(settings, stateDir)) {
            t.lifecycle(run, Events.runStarted(run, "users", List.of(), 8));
            t.lifecycle(run, Events.stepStarted(run, 0, Map.of("users", 10.0), 0, 0));
            List<Sample> batch = new ArrayList<>();
            double bytes = 0;
            for (int s = 0; s < 20; s++) {
                bytes = s == 10 ? 500 : bytes + 500; // restart at 10 s: the counter resets
                batch.add(sample("sfu", "net.tx.bytes", SampleKind.COUNTER, s, bytes, Map.of()));
                batch.add(sample("livekit", "cpu.cores", SampleKind.GAUGE, s + 0.1, 1.0, Map.of("system", "lk")));
                batch.add(sample("redis", "cpu.cores", SampleKind.GAUGE, s + 0.2, 2.0, Map.of("system", "lk")));
                batch.add(sample("llm", "cpu.cores", SampleKind.GAUGE, s + 0.3, 4.0, Map.of("system", "ai")));
            }
            t.samples(run, batch);
            t.lifecycle(run, Events.stepEnded(run, 0, 20));
            t.advanceWallClock(Duration.ofSeconds(31));

            List<StepAggregate> out = t.aggregates.readValuesToList();
            StepAggregate tx = find(out, "sfu", "net.tx.bytes");
            assertThat(tx.getRatePerSecond()).isCloseTo(500, within(1e-9));
            assertThat(tx.getPeak()).as("no negative or huge rate at the reset").isCloseTo(500, within(1e-9));
            assertThat(find(out, "group:system=lk", "cpu.cores").getSustained()).isCloseTo(3.0, within(1e-9));
            assertThat(find(out, "group:system=ai", "cpu.cores").getSustained()).isCloseTo(4.0, within(1e-9));
            assertThat(find(out, "livekit", "cpu.cores").getSustained()).isEqualTo(1.0);
        }
    }

    @Test
    void cpuOutsideTheSystemUnderTestFlagsTheStepAndKeepsItOutOfFits() {
        String run = "run-contaminated";
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults(), stateDir)) {
            t.lifecycle(run, Events.runStarted(run, "users", List.of(), 10));
            for (int step = 0; step < 4; step++) {
                int start = step * 20;
                t.lifecycle(run, Events.stepStarted(run, step, Map.of("users", 10.0 * (step + 1)), start, 0));
                List<Sample> batch = new ArrayList<>();
                for (int s = start; s < start + 20; s++) {
                    batch.add(gauge("livekit", "cpu.cores", s, 0.5 + 0.1 * (step + 1) + (s % 2) * 0.01));
                    double llm = step == 1 ? 8.6 : 0.2; // seeds/000: the LLM container took up to 8.6 cores
                    batch.add(sample("llm", "cpu.cores", SampleKind.GAUGE, s, llm, Map.of("sut", "false")));
                }
                t.samples(run, batch);
                t.lifecycle(run, Events.stepEnded(run, step, start + 20));
            }
            t.advanceWallClock(Duration.ofSeconds(31));

            List<StepVerdict> verdicts = t.verdicts.readValuesToList();
            assertThat(verdicts).extracting(StepVerdict::getContaminated).containsExactly(false, true, false, false);
            assertThat(verdicts.get(1).getContaminationReason()).contains("llm").contains("8.60");
            assertThat(t.alerts.readValuesToList()).anyMatch(a -> a.getKind() == AlertKind.STEP_CONTAMINATED
                    && a.getStepIndex() == 1);
            assertThat(t.aggregates.readValuesToList().stream().filter(a -> a.getStepIndex() == 1))
                    .allMatch(StepAggregate::getContaminated);
            var fit = t.fits.readValuesToList().stream().filter(f -> f.getSource().equals("livekit")).reduce((a, b) -> b)
                    .orElseThrow();
            assertThat(fit.getStepsUsed()).as("contaminated step left out").isEqualTo(3);
        }
    }

    private static StepAggregate find(List<StepAggregate> all, String source, String metric) {
        return all.stream().filter(a -> a.getSource().equals(source) && a.getMetric().equals(metric)
                && a.getStepIndex() == 0).findFirst().orElseThrow(() -> new AssertionError(source + "/" + metric));
    }
}
