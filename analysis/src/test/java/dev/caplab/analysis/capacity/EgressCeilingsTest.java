package dev.caplab.analysis.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.analysis.capacity.EgressCeilings.Measurement;
import dev.caplab.schema.event.RunEgressCeiling;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Measured beats nominal: a declared measurement, else iperf3's, else the nominal figure. */
class EgressCeilingsTest {

    private static final Instant AT = Instant.parse("2026-12-03T19:41:29Z");
    private static final Optional<Measurement> IPERF3 = Optional.of(new Measurement(80, AT));

    @Test
    void aDeclaredMeasurementBeatsIperf3WhichBeatsTheNominalFigure() {
        assertThat(EgressCeilings.of(500.0, 1000.0, IPERF3)).contains(ceiling(500, "DECLARED_MEASURED", null));
        assertThat(EgressCeilings.of(null, 1000.0, IPERF3)).contains(ceiling(80, "MEASURED", AT));
        assertThat(EgressCeilings.of(null, 1000.0, Optional.empty())).contains(ceiling(1000, "DECLARED_NOMINAL", null));
        assertThat(EgressCeilings.of(null, null, Optional.empty())).isEmpty();
    }

    @Test
    void inBytesPerSecondAMegabitIsAMillionBitsOverEight() {
        // 80 Mbit/s = 80,000,000 bits/s = 10,000,000 bytes/s
        assertThat(EgressCeilings.bytesPerSecond(80)).isEqualTo(10_000_000.0);
        assertThat(EgressCeilings.mbps(10_000_000.0)).isEqualTo(80.0);
        // 1 byte/s = 8 bit/s = 0.000008 Mbit/s
        assertThat(EgressCeilings.mbps(1)).isEqualTo(8e-6);
    }

    private static RunEgressCeiling ceiling(double mbps, String source, Instant measuredAt) {
        return new RunEgressCeiling(mbps, source, measuredAt);
    }
}
