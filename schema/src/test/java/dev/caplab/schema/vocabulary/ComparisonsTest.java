package dev.caplab.schema.vocabulary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.Comparator;
import org.junit.jupiter.api.Test;

class ComparisonsTest {

    @Test
    void eachComparisonIsWrittenWithItsMathematicalSymbol() {
        assertThat(Comparisons.symbol(Comparator.LT)).isEqualTo("<");
        assertThat(Comparisons.symbol(Comparator.LE)).isEqualTo("≤");
        assertThat(Comparisons.symbol(Comparator.GT)).isEqualTo(">");
        assertThat(Comparisons.symbol(Comparator.GE)).isEqualTo("≥");
        assertThat(Comparisons.symbol(Comparator.EQ)).isEqualTo("=");
    }
}
