package dev.caplab.streams.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunEgressCeiling;
import dev.caplab.schema.event.Environment;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.streams.Events;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.TopologySettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An iperf3 sender rate ingested into a run is the egress ceiling of its fits (80 Mbit/s = 10,000,000 bytes/s),
 * unless the run declared a measured egress (1000 Mbit/s in {@link Events#runStarted}); it beats a declared nominal.
 */
class MeasuredCeilingsTest {

    private static final Map<String, String> SENDER = Map.of("scope", "test", "side", "sender", "direction", "egress");

    @TempDir
    Path stateDir;

    @Test
    void anIperf3SenderRateIsTheEgressCeilingUnlessTheRunDeclaredAMeasuredOne() {
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults(), stateDir)) {
            t.samples("bare", iperf(80.0));
            t.samples("bare", steps());
            t.lifecycle("nominal", nominalOnly("nominal", 1000.0));
            t.samples("nominal", iperf(80.0));
            t.samples("nominal", steps());
            t.lifecycle("declared", Events.runStarted("declared", "vus", List.of(), 4));
            t.samples("declared", iperf(80.0));
            t.samples("declared", steps());

            List<CapacityFit> fits = t.fits.readValuesToList().stream()
                    .filter(f -> f.getMetric().equals("net.tx.bytes")).toList();
            assertThat(capacity(fits, "bare")).as("80 Mbit/s in bytes/s").isEqualTo(80e6 / 8);
            assertThat(capacity(fits, "nominal")).as("measured beats nominal").isEqualTo(80e6 / 8);
            assertThat(capacity(fits, "declared")).as("a declared measurement wins").isEqualTo(1000e6 / 8);

            // the conclusion carries the same ceiling in Mbit/s with where it came from
            List<RunConclusion> conclusions = t.conclusions.readValuesToList();
            assertThat(ceiling(conclusions, "bare").getMbps()).isEqualTo(80.0);
            assertThat(ceiling(conclusions, "bare").getSource()).isEqualTo("MEASURED");
            assertThat(ceiling(conclusions, "bare").getMeasuredAt()).as("the iperf3 sample's time")
                    .isEqualTo(java.time.Instant.ofEpochSecond(0, (Events.T0_MICROS + 1_000_000L) * 1_000L));
            assertThat(ceiling(conclusions, "nominal").getSource()).isEqualTo("MEASURED");
            assertThat(ceiling(conclusions, "declared").getMbps()).isEqualTo(1000.0);
            assertThat(ceiling(conclusions, "declared").getSource()).isEqualTo("DECLARED_MEASURED");
            assertThat(ceiling(conclusions, "declared").getMeasuredAt()).isNull();
        }
    }

    private static RunEgressCeiling ceiling(List<RunConclusion> conclusions, String run) {
        return conclusions.stream().filter(c -> c.getRunId().equals(run)).reduce((a, b) -> b).orElseThrow()
                .getEgressCeiling();
    }

    private static double capacity(List<CapacityFit> fits, String run) {
        return fits.stream().filter(f -> f.getRunId().equals(run)).reduce((a, b) -> b).orElseThrow().getCapacity();
    }

    private static List<Sample> iperf(double mbps) {
        return List.of(Events.sample("lg", "net.throughput.mbps", SampleKind.GAUGE, 1, mbps, SENDER),
                Events.sample("lg", "net.throughput.mbps", SampleKind.GAUGE, 1, mbps * 0.9,
                        Map.of("scope", "test", "side", "receiver")));
    }

    /** vus 10, 20, 30, 40 for 60 s each; egress 2,000 bytes/s per vu with a little noise. */
    private static List<Sample> steps() {
        List<Sample> batch = new ArrayList<>();
        for (int s = 0; s < 240; s++) {
            int vus = 10 * (1 + s / 60);
            batch.add(Events.gauge("k6", "vus", s, vus));
            batch.add(Events.gauge("sut", "net.tx.bytes", s, 2_000.0 * vus + 37 * (s % 5)));
        }
        return batch;
    }

    private static RunStarted nominalOnly(String run, double nominalMbps) {
        RunStarted r = Events.runStarted(run, "vus", List.of(), 4);
        r.setEnvironment(Environment.newBuilder(r.getEnvironment()).setMeasuredEgressMbps(null)
                .setNominalEgressMbps(nominalMbps).build());
        return r;
    }
}
