package dev.caplab.query.runs;

import dev.caplab.schema.serde.AvroTrust;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunEgressCeiling;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.query.testing.StoredConclusions;
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

    static {
        AvroTrust.install(); // the conclusions built here default to event classes Avro checks by name
    }

    private static final Instant T0 = Instant.parse("2026-12-03T19:00:00Z");

    @Test
    void beforeStreamsConcludedTheDeclaredCeilingStandsMeasuredBeforeNominal() {
        RunRow both = run(1000.0, 103.0);
        assertThat(RunSummary.egressCeiling(null, both)).isEqualTo(ceiling(103, "DECLARED_MEASURED", null));
        assertThat(RunSummary.of(both, null).egressCeilingMbps()).isEqualTo(103.0);
        RunRow nominal = run(1000.0, null);
        assertThat(RunSummary.egressCeiling(null, nominal)).isEqualTo(ceiling(1000, "DECLARED_NOMINAL", null));
        assertThat(EgressCeilingView.of(RunSummary.egressCeiling(null, nominal)).text()).isEqualTo("declared nominal");
        assertThat(RunSummary.egressCeiling(null, run(null, null))).isNull();
        assertThat(RunSummary.of(run(null, null), null).egressCeilingMbps()).isNull();
    }

    @Test
    void theConcludedCeilingBeatsTheDeclaredOneAndTheListKeepsTheDeclared() {
        RunEgressCeiling iperf3 = ceiling(80, "MEASURED", T0.plusSeconds(30));
        RunConclusion concluded = RunConclusion.newBuilder(StoredConclusions.row("r", null, null, null, null, 0, null,
                List.of(), T0)).setEgressCeiling(iperf3).build();
        RunRow nominal = run(1000.0, null);
        assertThat(RunSummary.egressCeiling(concluded, nominal)).isEqualTo(iperf3);
        assertThat(RunSummary.of(nominal, concluded).egressCeilingMbps()).isEqualTo(1000.0);
        RunConclusion withoutCeiling = StoredConclusions.row("r", null, null, null, null, 0, null, List.of(), T0);
        assertThat(RunSummary.egressCeiling(withoutCeiling, nominal).getSource()).isEqualTo("DECLARED_NOMINAL");
    }

    @Test
    void eachSourceReadsAsWordsAndAnIperf3MeasurementNamesItsTime() {
        assertThat(EgressCeilingView.of(ceiling(80, "MEASURED", Instant.parse("2026-12-03T19:41:29Z"))).text())
                .isEqualTo("measured by iperf3 at 2026-12-03T19:41:29Z");
        assertThat(EgressCeilingView.of(ceiling(500, "DECLARED_MEASURED", null)).text())
                .isEqualTo("declared as measured");
        // a source this reader does not know still reads as words
        assertThat(EgressCeilingView.of(ceiling(90, "MEASURED_BY_SPEEDTEST", null)).text())
                .isEqualTo("measured by speedtest");
    }

    private static RunEgressCeiling ceiling(double mbps, String source, Instant measuredAt) {
        return RunEgressCeiling.newBuilder().setMbps(mbps).setSource(source).setMeasuredAt(measuredAt).build();
    }

    private static RunRow run(Double nominalMbps, Double measuredMbps) {
        return new RunRow("r", T0, "sut", "1.0", null, "provider", "region", "type", "tier", 2.0, 4L << 30,
                nominalMbps, measuredMbps, "k6", Map.of(), List.of(), List.of(), "vus", "DECLARED", null, null, null,
                1);
    }
}
