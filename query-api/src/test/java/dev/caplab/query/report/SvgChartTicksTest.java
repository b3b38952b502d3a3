package dev.caplab.query.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.query.format.Figures;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An axis reads in round steps of the unit its values are written in. */
class SvgChartTicksTest {

    private static final double MIB = 1024 * 1024;
    private static final double GIB = 1024 * MIB;

    @Test
    void bytesInBinaryUnitsTickAPowerOfTwoApart() {
        // a 2 GiB memory ceiling: a fifth of the range is 0.4 GiB, the next power of two 512 MiB
        List<Double> ticks = SvgChart.binaryTicks(new Range(0, 2 * GIB + 1));

        assertThat(ticks).containsExactly(0.0, 512 * MIB, GIB, 1.5 * GIB, 2 * GIB);
        assertThat(ticks.stream().map(t -> Figures.quantity("mem.bytes", t)))
                .containsExactly("0 B", "512 MiB", "1 GiB", "1.5 GiB", "2 GiB");
    }

    @Test
    void decimalQuantitiesTickOneTwoOrFiveTimesAPowerOfTen() {
        assertThat(SvgChart.ticks(new Range(0, 1000))).containsExactly(0.0, 200.0, 400.0, 600.0, 800.0, 1000.0);
    }

    @Test
    void onlyValuesWrittenInBinaryUnitsGetBinaryTicks() {
        assertThat(Figures.binary("mem.bytes")).isTrue();
        assertThat(Figures.binary("block.read.bytes")).isTrue();
        // network bytes are written as Mbit/s, a decimal unit
        assertThat(Figures.binary("net.tx.bytes")).isFalse();
        assertThat(Figures.binary("cpu.cores")).isFalse();
    }
}
