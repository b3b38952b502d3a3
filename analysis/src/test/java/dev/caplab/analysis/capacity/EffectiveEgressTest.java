package dev.caplab.analysis.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.analysis.capacity.EffectiveEgress.Measurement;
import dev.caplab.analysis.capacity.EffectiveEgress.Source;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Measured beats nominal: a declared measurement, else iperf3's, else the nominal figure. */
class EffectiveEgressTest {

    private static final Optional<Measurement> IPERF3 = Optional.of(new Measurement(80,
            Instant.parse("2026-12-03T19:41:29Z")));

    @Test
    void aDeclaredMeasurementBeatsIperf3WhichBeatsTheNominalFigure() {
        assertThat(EffectiveEgress.of(500.0, 1000.0, IPERF3)).contains(new EffectiveEgress(500,
                Source.DECLARED_MEASURED, Optional.empty()));
        assertThat(EffectiveEgress.of(null, 1000.0, IPERF3)).contains(new EffectiveEgress(80, Source.MEASURED,
                Optional.of(Instant.parse("2026-12-03T19:41:29Z"))));
        assertThat(EffectiveEgress.of(null, 1000.0, Optional.empty())).contains(new EffectiveEgress(1000,
                Source.DECLARED_NOMINAL, Optional.empty()));
        assertThat(EffectiveEgress.of(null, null, Optional.empty())).isEmpty();
    }

    @Test
    void inBytesPerSecondAMegabitIsAMillionBitsOverEight() {
        // 80 Mbit/s = 80,000,000 bits/s = 10,000,000 bytes/s
        assertThat(new EffectiveEgress(80, Source.DECLARED_NOMINAL, Optional.empty()).bytesPerSecond())
                .isEqualTo(10_000_000.0);
    }
}
