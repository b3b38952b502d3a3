package dev.caplab.streams.run;

import static dev.caplab.streams.Events.gauge;
import static dev.caplab.streams.Events.sample;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.Events;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.TopologySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bounds of inferred steps: the last one ends with the tool's last report of its load, not with the run (whose end
 * takes in the host's idle tail), and the second of a level change belongs to the new step. The tool reports users
 * every second at half past (a scrape does not land on whole seconds); the host samples every second until 60 s
 * after the tool stopped.
 */
class StepBoundsTest {

    private static final double LOW_CORES = 0.8;
    private static final double HIGH_CORES = 1.6;
    private static final double IDLE_CORES = 0.05;

    @TempDir
    Path stateDir;

    @Test
    void theLastStepEndsAtTheToolsLastReportAndAChangeSecondBelongsToTheNewStep() {
        String run = "run-bounds";
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults(), stateDir)) {
            t.lifecycle(run, Events.runStarted(run, "vus", List.of(), 2));
            List<Sample> batch = new ArrayList<>();
            for (int s = 0; s < 120; s++) {
                double at = s + 0.5;
                batch.add(gauge("k6", MetricNames.K6_VUS, at, s < 60 ? 80 : 160));
                // one request per second; the only failure is sent at the instant the load went to 160
                boolean failed = s == 60;
                batch.add(sample("k6", MetricNames.K6_HTTP_REQ_DURATION, SampleKind.GAUGE, at, 10,
                        Map.of("expected_response", failed ? "false" : "true")));
            }
            for (int s = 0; s < 180; s++) {
                batch.add(gauge("node", "cpu.cores", s, s < 60 ? LOW_CORES : s < 120 ? HIGH_CORES : IDLE_CORES));
            }
            t.samples(run, batch);
            t.lifecycle(run, Events.runEnded(run, 179));
            t.advanceWallClock(Duration.ofSeconds(31));

            List<StepAggregate> out = t.aggregates.readValuesToList();
            StepAggregate cpu0 = find(out, 0, "node", "cpu.cores");
            StepAggregate cpu1 = find(out, 1, "node", "cpu.cores");
            // 60 whole seconds each: [0, 60) and [60, 120); the second of the change (60) is the new step's
            assertThat(cpu0.getWindowStart()).isEqualTo(Events.at(0));
            assertThat(cpu0.getWindowEnd()).isEqualTo(Events.at(60));
            assertThat(cpu1.getWindowStart()).isEqualTo(Events.at(60));
            assertThat(cpu1.getWindowEnd()).as("the second of the tool's last report (119.5 s) is the last")
                    .isEqualTo(Events.at(120));
            assertThat(cpu1.getCount()).isEqualTo(60);
            assertThat(cpu1.getSustained()).as("the idle tail after the tool stopped is no part of the step")
                    .isCloseTo(HIGH_CORES, within(1e-9));
            assertThat(cpu0.getSustained()).isCloseTo(LOW_CORES, within(1e-9));

            StepAggregate errors0 = find(out, 0, "caplab:throughput", MetricNames.THROUGHPUT_ERRORS_RATIO);
            assertThat(errors0.getSustained()).as("the failure sent at 160 users is not the 80-user step's")
                    .isEqualTo(0.0);
            StepAggregate latency1 = find(out, 1, "k6", MetricNames.K6_HTTP_REQ_DURATION);
            assertThat(latency1.getCount()).as("requests at 60.5 .. 119.5 s").isEqualTo(60);
            assertThat(find(out, 0, "k6", MetricNames.K6_HTTP_REQ_DURATION).getCount()).isEqualTo(60);
        }
    }

    private static StepAggregate find(List<StepAggregate> out, int step, String source, String metric) {
        return out.stream().filter(a -> a.getStepIndex() == step && a.getSource().equals(source)
                && a.getMetric().equals(metric)).reduce((a, b) -> b).orElseThrow(() -> new AssertionError(
                "no aggregate of " + source + "/" + metric + " at step " + step + " in " + out.stream()
                        .map(a -> a.getStepIndex() + ":" + a.getSource() + "/" + a.getMetric()).distinct().toList()));
    }
}
