package dev.caplab.query.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.query.fits.FitView;
import dev.caplab.query.testing.FakeStore;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A comparison row's cliff is a resource's: the request rate's fit (the throughput limit's) is left out, even when
 * it is flagged with a cliff. The run is EP19's LightNode 1 vCPU with its CPU cliff taken away.
 */
class ThroughputFitIsNoResourceTest {

    @Test
    void aCliffOfTheRequestRateFitIsNoCliffOfTheRun() {
        FakeStore store = FakeStore.withLightNode1Vcpu();
        Instant at = Instant.parse("2026-07-28T11:00:00Z");
        store.fits.clear();
        store.fits.add(FitView.of("ln-1vcpu", "node", "cpu.cores", "linear", "1", "viewers", 5,
                List.of(new FitView.Segment(10, 19, 0.05, 0.022, 0.004)), List.of(), null, 0.97, false, null, 1.0,
                0.6, 25.0, true, at));
        FitView rate = FitView.of("ln-1vcpu", "caplab:throughput", "throughput.requests.per_s", "segmented-1", "1",
                "viewers", 5, List.of(new FitView.Segment(10, 17, 0, 20, 0.5), new FitView.Segment(17, 19, 340, 0, 0.5)),
                List.of(new FitView.Breakpoint(17, 0.4, 16.2, 17.8)), 0.01, 0.99, true, 3, null, 0.6, null, false, at);
        store.fits.add(rate);
        assertThat(rate.throughputFit()).isTrue();
        assertThat(store.fits.getFirst().throughputFit()).isFalse();

        Comparison c = new CompareService(store, store, store).compare(List.of("ln-1vcpu"), Optional.empty(), false,
                GroupBy.PROVIDER, Optional.empty());
        assertThat(c.rows()).singleElement().satisfies(row -> assertThat(row.cliff()).isFalse());
    }
}
