package dev.caplab.query.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What a comparison warns about a run's egress, in words a reader can act on. */
class ComparisonWarningsTest {

    private static ComparisonRow run(String id, Double nominalMbps, Double measuredMbps) {
        return new ComparisonRow("small", id, "shop", "hetzner", null, "small", null, 2.0, null, nominalMbps,
                measuredMbps, "users", 40.0, null, null, null, null, null, false, null, null, null, null);
    }

    @Test
    void aRunWithoutAnyEgressFigureIsToldSoNotGivenANullNominal() {
        List<String> warnings = ComparisonWarnings.within(List.of(run("bare", null, null),
                run("nominal", 1000.0, null), run("measured", 1000.0, 412.0)));

        assertThat(warnings).contains(
                "run bare has no measured egress: nor a nominal one; egress cannot be planned until it is measured"
                        + " (iperf3)",
                "run nominal has no measured egress: a nominal 1000.0 Mbps may be far above what the provider"
                        + " delivers; measure it (iperf3) before planning");
        assertThat(warnings).noneMatch(w -> w.contains("null")).noneMatch(w -> w.contains("run measured"));
    }
}
