package dev.caplab.store.row;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** What the API serves of a stored egress ceiling beyond its columns: where it came from, in words. */
class EgressCeilingValueTest {

    @Test
    void eachSourceReadsAsWordsAndAnIperf3MeasurementNamesItsTime() {
        assertThat(new EgressCeilingValue(80, "MEASURED", Instant.parse("2026-12-03T19:41:29Z")).text())
                .isEqualTo("measured by iperf3 at 2026-12-03T19:41:29Z");
        assertThat(new EgressCeilingValue(500, "DECLARED_MEASURED", null).text()).isEqualTo("declared as measured");
        assertThat(new EgressCeilingValue(1000, "DECLARED_NOMINAL", null).text()).isEqualTo("declared nominal");
    }

    @Test
    void aSourceThisReaderDoesNotKnowStillReadsAsWords() {
        assertThat(new EgressCeilingValue(90, "MEASURED_BY_SPEEDTEST", null).text())
                .isEqualTo("measured by speedtest");
    }
}
