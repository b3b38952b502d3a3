package dev.caplab.store.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A time ClickHouse's DateTime64(6) would clamp (1900-01-01 .. 2299-12-31) never becomes a row. */
class StorableTimeTest {

    @Test
    void samplesAtTheColumnsBoundsAreRowsAndBeyondThemAreRefusedNamingTheField() {
        assertThat(sample("1900-01-01T00:00:00Z").ts()).isEqualTo(Instant.parse("1900-01-01T00:00:00Z"));
        assertThat(sample("2299-12-31T23:59:59.999999Z").ts()).isEqualTo(Instant.parse("2299-12-31T23:59:59.999999Z"));
        // the cases: year 1000 was stored as 1900-01-01, a millisecond epoch read as seconds as 2299-12-31
        assertThatThrownBy(() -> sample("1000-01-01T00:00:00Z")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ts 1000-01-01T00:00:00Z");
        assertThatThrownBy(() -> sample(Instant.ofEpochSecond(1_700_000_000_000L).toString()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ts ");
        assertThatThrownBy(() -> sample("2300-01-01T00:00:00Z")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void stepsEndingOutsideTheStorableRangeAreRefused() {
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        assertThat(new StepRow("r", 0, Map.of(), start, 0, null, 1).endedAt()).isNull();
        assertThatThrownBy(() -> new StepRow("r", 0, Map.of(), start, 0, Instant.parse("2400-01-01T00:00:00Z"), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("endedAt");
    }

    private static SampleRow sample(String ts) {
        return SampleRow.of("run", Instant.parse(ts), "host", "cpu.cores", "GAUGE", 1.0, Map.of());
    }
}
