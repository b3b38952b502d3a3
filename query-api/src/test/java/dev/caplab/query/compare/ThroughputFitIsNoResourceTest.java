package dev.caplab.query.compare;

import dev.caplab.schema.serde.AvroTrust;
import dev.caplab.schema.event.BottleneckRule;
import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.schema.event.RunBottleneck;
import dev.caplab.schema.event.RunConclusion;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.query.fits.FitView;
import dev.caplab.query.testing.StoredFits;
import dev.caplab.store.row.RunRow;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A comparison row's cliff is a resource's: the request rate's fit (the throughput limit's) is left out, even when
 * it is flagged with a cliff. The run is EP19's LightNode 1 vCPU with its CPU cliff taken away.
 */
class ThroughputFitIsNoResourceTest {

    static {
        AvroTrust.install(); // the conclusions built here default to event classes Avro checks by name
    }

    private static final Instant AT = Instant.parse("2026-07-28T11:00:00Z");

    @Test
    void aCliffOfTheRequestRateFitIsNoCliffOfTheRun() {
        RunRow run = new RunRow("ln-1vcpu", Instant.parse("2026-07-28T10:00:00Z"), "mmx", "0.9", null, "lightnode",
                "manila", "1c2g", "1vcpu-2gb", 1.0, 2L << 30, 1000.0, 100.0, "whep-loadgen", Map.of("episode", "ep19"),
                List.of(), List.of(), "viewers", "DECLARED", AT, "COMPLETED", null, 1);
        RunConclusion conclusion = RunConclusion.newBuilder().setRunId("ln-1vcpu").setMaxStableX(18.0)
                .setMaxStableStepIndex(3).setFirstFailingX(19.0).setFirstFailingStepIndex(4).setStepsJudged(5)
                .setStepsSkipped(0).setBottleneck(RunBottleneck.newBuilder().setSource("node").setMetric("cpu.cores")
                        .setRule(BottleneckRule.SMALLEST_SAFE_CAPACITY).setValue(18.0).setRole("sut").build())
                .setMargin(0.6).setResources(List.of(ResourceEstimate.newBuilder().setSource("node")
                        .setMetric("cpu.cores").setIntercept(0.05).setSlope(0.022).setSlopeVariance(0.004 * 0.004)
                        .setDegreesOfFreedom(2).setPreKneeSteps(4).setFromX(10).setToX(18).setCeiling(1.0)
                        .setSafeCapacityX(18.0).setCappedByCliff(true).setKneeX(18.0).setCliff(true)
                        .setCliffStepIndex(4).setLastStableX(18.0).setRole("sut").build()))
                .setRunClosed(true).setModel("caplab-run-conclusion/1").setConcludedAt(AT).setVersion(9).build();
        FitView cpu = new FitView(StoredFits.fit("ln-1vcpu", "node", "cpu.cores", "linear", "1", "viewers", 5,
                List.of(StoredFits.segment(10, 19, 0.05, 0.022, 0.004)), List.of(), null, 0.97, false, null, 1.0,
                0.6, 25.0, true, AT, 1));
        FitView rate = new FitView(StoredFits.fit("ln-1vcpu", "caplab:throughput", "throughput.requests.per_s",
                "segmented-1", "1", "viewers", 5, List.of(StoredFits.segment(10, 17, 0, 20, 0.5), StoredFits.segment(17, 19, 340, 0, 0.5)),
                List.of(StoredFits.breakpoint(17, 0.4, 16.2, 17.8)), 0.01, 0.99, true, 3, null, 0.6, null, false, AT, 1));
        assertThat(rate.throughputFit()).isTrue();
        assertThat(cpu.throughputFit()).isFalse();

        ComparisonRow row = CompareService.row(run, GroupBy.PROVIDER, Optional.empty(), Optional.of(conclusion),
                List.of(cpu, rate), 19.0);
        assertThat(row.cliff()).isFalse();
        ComparisonRow withCliff = CompareService.row(run, GroupBy.PROVIDER, Optional.empty(), Optional.of(conclusion),
                List.of(new FitView(StoredFits.fit("ln-1vcpu", "node", "cpu.cores", "linear", "1", "viewers", 5,
                        List.of(StoredFits.segment(10, 19, 0.05, 0.022, 0.004)), List.of(), null, 0.97, true, 4, 1.0,
                        0.6, 25.0, true, AT, 1)), rate), 19.0);
        assertThat(withCliff.cliff()).as("a resource's cliff is the run's").isTrue();
    }
}
