package dev.caplab.schema.vocabulary;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VocabularyTest {

    @Test
    void quantileKeysNameTheirPercentiles() {
        assertThat(Statistics.percentileName(Statistics.Q50)).isEqualTo(Statistics.P50);
        assertThat(Statistics.percentileName(Statistics.Q90)).isEqualTo(Statistics.P90);
        assertThat(Statistics.percentileName(Statistics.Q95)).isEqualTo(Statistics.P95);
        assertThat(Statistics.percentileName(Statistics.Q99)).isEqualTo(Statistics.P99);
        assertThat(Statistics.percentileName("0.999")).isEqualTo("p99.9");
        assertThat(Statistics.ALL).contains("p50", "p90", "p95", "p99", "sustained", "peak", "rate");
    }

    @Test
    void theMarginAsTextIsTheMargin() {
        assertThat(Double.parseDouble(Planning.DEFAULT_MARGIN_TEXT)).isEqualTo(Planning.DEFAULT_MARGIN);
    }
}
