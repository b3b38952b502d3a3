package dev.caplab.query.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.query.fits.FitView;
import dev.caplab.query.testing.StoredFits;
import dev.caplab.store.row.RunRow;
import dev.caplab.store.row.ResourceEstimateValue;
import dev.caplab.store.row.RunConclusionRow;
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

    private static final Instant AT = Instant.parse("2026-07-28T11:00:00Z");

    @Test
    void aCliffOfTheRequestRateFitIsNoCliffOfTheRun() {
        RunRow run = new RunRow("ln-1vcpu", Instant.parse("2026-07-28T10:00:00Z"), "mmx", "0.9", null, "lightnode",
                "manila", "1c2g", "1vcpu-2gb", 1.0, 2L << 30, 1000.0, 100.0, "whep-loadgen", Map.of("episode", "ep19"),
                List.of(), List.of(), "viewers", "DECLARED", AT, "COMPLETED", null, 1);
        RunConclusionRow conclusion = new RunConclusionRow("ln-1vcpu", 18.0, 3, 19.0, 4, 5, 0, "node", "cpu.cores",
                "SMALLEST_SAFE_CAPACITY", 18.0, null, 0.6,
                List.of(new ResourceEstimateValue("node", "cpu.cores", 0.05, 0.022, null, 0.004 * 0.004, null, null, 2, 4, null,
                        10, 18, 1.0, 18.0, null, null, null, true, 18.0, true, 4, 18.0, "sut")),
                true, "caplab-run-conclusion/1", AT, 9);
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
