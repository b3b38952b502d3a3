package dev.caplab.query.runs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.query.testing.StoredConclusions;
import dev.caplab.store.row.EgressCeilingValue;
import dev.caplab.store.row.RunConclusionRow;
import dev.caplab.store.row.RunRow;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A run's egress ceiling as served: its conclusion's (which may be an iperf3 measurement), else what the run
 * declared, measured before nominal; the list shows the declared one only.
 */
class RunSummaryEgressCeilingTest {

    private static final Instant T0 = Instant.parse("2026-12-03T19:00:00Z");

    @Test
    void beforeStreamsConcludedTheDeclaredCeilingStandsMeasuredBeforeNominal() {
        RunRow both = run(1000.0, 103.0);
        assertThat(RunSummary.egressCeiling(null, both)).isEqualTo(new EgressCeilingValue(103, "DECLARED_MEASURED",
                null));
        assertThat(RunSummary.of(both, null).egressCeilingMbps()).isEqualTo(103.0);
        RunRow nominal = run(1000.0, null);
        assertThat(RunSummary.egressCeiling(null, nominal)).isEqualTo(new EgressCeilingValue(1000, "DECLARED_NOMINAL",
                null));
        assertThat(RunSummary.egressCeiling(null, nominal).text()).isEqualTo("declared nominal");
        assertThat(RunSummary.egressCeiling(null, run(null, null))).isNull();
        assertThat(RunSummary.of(run(null, null), null).egressCeilingMbps()).isNull();
    }

    @Test
    void theConcludedCeilingBeatsTheDeclaredOneAndTheListKeepsTheDeclared() {
        EgressCeilingValue iperf3 = new EgressCeilingValue(80, "MEASURED", T0.plusSeconds(30));
        RunConclusionRow concluded = StoredConclusions.row("r", null, null, null, null, 0, null, List.of(), T0)
                .withEgressCeiling(iperf3);
        RunRow nominal = run(1000.0, null);
        assertThat(RunSummary.egressCeiling(concluded, nominal)).isEqualTo(iperf3);
        assertThat(RunSummary.of(nominal, concluded).egressCeilingMbps()).isEqualTo(1000.0);
        RunConclusionRow withoutCeiling = StoredConclusions.row("r", null, null, null, null, 0, null, List.of(), T0);
        assertThat(RunSummary.egressCeiling(withoutCeiling, nominal).source()).isEqualTo("DECLARED_NOMINAL");
    }

    private static RunRow run(Double nominalMbps, Double measuredMbps) {
        return new RunRow("r", T0, "sut", "1.0", null, "provider", "region", "type", "tier", 2.0, 4L << 30,
                nominalMbps, measuredMbps, "k6", Map.of(), List.of(), List.of(), "vus", "DECLARED", null, null, null,
                1);
    }
}
