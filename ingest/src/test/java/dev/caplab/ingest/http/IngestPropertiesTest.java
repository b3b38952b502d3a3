package dev.caplab.ingest.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IngestPropertiesTest {

    @Test
    void unsetSettingsTakeTheDocumentedDefaults() {
        IngestProperties defaults = new IngestProperties(null, null, null, null, null, null, null, null);

        assertThat(defaults.transactionsInFlight()).isEqualTo(2);
        assertThat(defaults.groupWait()).isZero();
        assertThat(defaults.maxBodyBytes()).isEqualTo(64L * 1024 * 1024);
    }

    @Test
    void transactionsInFlightOutsideTheProducerPoolIsRefusedByName() {
        assertThatThrownBy(() -> new IngestProperties(null, null, null, null, 0, null, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("caplab.ingest.transactions-in-flight must be within 1 and 4, was 0");
        assertThatThrownBy(() -> new IngestProperties(null, null, null, null, 5, null, null, null))
                .hasMessageContaining("was 5");
        assertThat(new IngestProperties(null, null, null, null, 4, null, null, null).transactionsInFlight()).isEqualTo(4);
    }
}
