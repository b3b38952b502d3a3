package dev.caplab.streams.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.streams.Events;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.TopologySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run on a 1 vCPU declaration whose host has 2 CPUs and 16 GiB, fed the series the exporter recipes derive from a
 * Prometheus scrape: node_exporter's host CPU (per CPU) and memory, process-exporter's server group ({@code srv}),
 * and the process-exporter binary's own {@code process_cpu_seconds_total} ({@code exporter:9256/process}), flat. The
 * server's CPU is 0.01 cores per user and the host's is the server's plus 0.1 cores, so against the right ceilings
 * the server reaches 0.6 of its 1 vCPU at 60 users and the host 0.6 of its 2 CPUs at 110: the server is the
 * bottleneck. Against the run's 1 vCPU the host would reach it at 50 and be named instead. The agent is never fitted.
 */
class SourceRolesTest {

    private static final String RUN = "run-roles";
    private static final int STEPS = 6;
    private static final int STEP_SECONDS = 20;
    private static final int HOST_CPUS = 2;
    private static final double HOST_MEMORY_BYTES = 16.0 * (1L << 30);

    @TempDir
    Path stateDir;

    private static double users(int step) {
        return 10.0 * (step + 1);
    }

    @Test
    void agentsAreNeverFittedAndAHostIsPlannedAgainstItsOwnCpusAndMemory() {
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults(), stateDir)) {
            t.lifecycle(RUN, Events.runStarted(RUN, "users", List.of(), 1));
            Map<String, Double> counters = new LinkedHashMap<>();
            for (int step = 0; step < STEPS; step++) {
                double start = 10 + step * STEP_SECONDS;
                double u = users(step);
                t.lifecycle(RUN, Events.stepStarted(RUN, step, Map.of("users", u), start, 2));
                // ±1 % alternating so the fits' residual variance is not zero
                double server = 0.01 * u * (step % 2 == 0 ? 1.01 : 0.99);
                double host = server + 0.1;
                for (int k = 0; k < STEP_SECONDS; k++) {
                    double at = start + k + 0.5;
                    List<Sample> batch = new ArrayList<>();
                    batch.add(counter(counters, "srv", 1 * server, at, Map.of("recipe", "process-exporter",
                            "groupname", "srv", "mode", "user", "host", "exporter:9256")));
                    batch.add(counter(counters, "exporter:9256/process", 0.004, at, Map.of("recipe", "process")));
                    for (int cpu = 0; cpu < HOST_CPUS; cpu++) {
                        batch.add(counter(counters, "node:9100#" + cpu, host / HOST_CPUS, at,
                                Map.of("recipe", "node_exporter", "cpu", String.valueOf(cpu), "mode", "user")));
                    }
                    batch.add(Events.sample("node:9100", "node_memory_MemTotal_bytes", SampleKind.GAUGE, at,
                            HOST_MEMORY_BYTES, Map.of()));
                    batch.add(Events.sample("node:9100", MetricNames.MEM_BYTES, SampleKind.GAUGE, at,
                            (1L << 30) + u * (10 << 20) * (step % 2 == 0 ? 1.01 : 0.99),
                            Map.of("recipe", "node_exporter")));
                    t.samples(RUN, batch);
                }
                t.lifecycle(RUN, Events.stepEnded(RUN, step, start + STEP_SECONDS));
            }
            t.lifecycle(RUN, Events.runEnded(RUN, 10 + STEPS * STEP_SECONDS));
            t.advanceWallClock(Duration.ofSeconds(31));

            Map<String, CapacityFit> fits = new LinkedHashMap<>();
            t.fits.readValuesToList().forEach(f -> fits.put(f.getSource() + "|" + f.getMetric(), f));
            assertThat(fits.keySet()).as("the agent's own CPU is never fitted")
                    .noneMatch(k -> k.startsWith("exporter:9256/process"));
            CapacityFit hostCpu = fits.get("node:9100|" + MetricNames.CPU_CORES);
            assertThat(hostCpu.getCapacity()).as("the host's ceiling is its own CPU count").isEqualTo(HOST_CPUS);
            assertThat(hostCpu.getRole()).isEqualTo("host");
            assertThat(fits.get("node:9100|" + MetricNames.MEM_BYTES).getCapacity()).as("the host's MemTotal")
                    .isEqualTo(HOST_MEMORY_BYTES);
            CapacityFit server = fits.get("srv|" + MetricNames.CPU_CORES);
            assertThat(server.getCapacity()).as("a process group's ceiling is the run's vCPU").isEqualTo(1.0);
            assertThat(server.getRole()).isEqualTo("sut");
            assertThat(fits.values().stream().filter(CapacityFit::getBottleneck).map(f -> f.getSource().toString()))
                    .containsExactly("srv");

            RunConclusion conclusion = t.conclusions.readValuesToList().getLast();
            assertThat(conclusion.getBottleneck().getSource()).hasToString("srv");
            assertThat(conclusion.getBottleneck().getMetric()).hasToString(MetricNames.CPU_CORES);
            assertThat(conclusion.getBottleneck().getRole()).hasToString("sut");
            // (0.6·1 − 0)/0.01 = 60 users, within the ±1 % the steps wobble by
            assertThat(conclusion.getBottleneck().getValue()).isBetween(57.0, 63.0);
            assertThat(conclusion.getResources()).extracting(e -> e.getSource().toString())
                    .doesNotContain("exporter:9256/process");
            ResourceEstimate host = conclusion.getResources().stream()
                    .filter(e -> e.getSource().toString().equals("node:9100")
                            && e.getMetric().toString().equals(MetricNames.CPU_CORES)).findFirst().orElseThrow();
            assertThat(host.getRole()).hasToString("host");
            assertThat(host.getSafeCapacityX()).as("(0.6·2 − 0.1)/0.01 = 110 users").isBetween(104.0, 116.0);
        }
    }

    /** A cumulative cpu-seconds counter of {@code source}: {@code cores} more per second. */
    private static Sample counter(Map<String, Double> totals, String key, double cores, double at,
            Map<String, String> labels) {
        double total = totals.merge(key, cores, Double::sum);
        String source = key.contains("#") ? key.substring(0, key.indexOf('#')) : key;
        return Events.sample(source, MetricNames.CPU_CORES, SampleKind.COUNTER, at, total, labels);
    }
}
