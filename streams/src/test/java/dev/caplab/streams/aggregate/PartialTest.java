package dev.caplab.streams.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.schema.event.SampleKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The partial's merge is commutative and associative: every statistic it reports is bit for bit the same whatever
 * the order and grouping (its encoding may differ: an exact sum has several representations). Its sketch keeps
 * DDSketch's 1 % guarantee.
 */
class PartialTest {

    private static final long BUCKET = 7_000_000L;

    @Test
    void foldingTheSameSamplesInAnyOrderOrGroupingGivesTheSameBytes() {
        Random random = new Random(42);
        List<BufferedSample> samples = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            // magnitudes 1e-3..1e9 so a plain double sum would depend on the order
            samples.add(gauge(BUCKET + i * 4_000, Math.pow(10, random.nextInt(13) - 3) * random.nextDouble()));
        }
        String inOrder = view(fold(samples));
        for (int round = 0; round < 5; round++) {
            List<BufferedSample> shuffled = new ArrayList<>(samples);
            Collections.shuffle(shuffled, random);
            int cut = 1 + random.nextInt(shuffled.size() - 2);
            Partial a = fold(shuffled.subList(0, cut));
            Partial b = fold(shuffled.subList(cut, shuffled.size()));
            Partial ab = PartialSerde.decode(PartialSerde.encode(a));
            ab.merge(b);
            Partial ba = PartialSerde.decode(PartialSerde.encode(b));
            ba.merge(a);
            assertThat(view(ab)).as("merge(a, b)").isEqualTo(inOrder);
            assertThat(view(ba)).as("merge(b, a)").isEqualTo(inOrder);
        }
    }

    @Test
    void mergeIsAssociative() {
        List<BufferedSample> x = List.of(gauge(BUCKET, 1e16), gauge(BUCKET + 1, 1.0));
        List<BufferedSample> y = List.of(gauge(BUCKET + 2, -1e16));
        List<BufferedSample> z = List.of(gauge(BUCKET + 3, 1.0), gauge(BUCKET + 4, 3.0));
        Partial left = fold(x);
        left.merge(fold(y));
        left.merge(fold(z));
        Partial yz = fold(y);
        yz.merge(fold(z));
        Partial right = fold(x);
        right.merge(yz);
        assertThat(view(left)).isEqualTo(view(right));
        assertThat(left.sum()).as("exact: 1e16 + 1 - 1e16 + 1 + 3, which double addition in order gives as 4")
                .isEqualTo(5.0);
        assertThat(left.count()).isEqualTo(5);
        assertThat(left.min()).isEqualTo(-1e16);
        assertThat(left.max()).isEqualTo(1e16);
    }

    @Test
    void counterPointsAreKeptSortedWhateverTheirArrivalOrder() {
        BufferedSample a = counter(BUCKET + 100, 10);
        BufferedSample b = counter(BUCKET + 500, 2); // a reset
        BufferedSample c = counter(BUCKET + 900, 5);
        Partial forward = fold(List.of(a, b, c));
        Partial backward = fold(List.of(c, b, a));
        assertThat(backward.points()).isEqualTo(forward.points()).extracting(TimedValue::value)
                .containsExactly(10.0, 2.0, 5.0);
    }

    @Test
    void sketchQuantilesAreWithinOnePercentOfTheExactOnesAndMergedSketchesEqualOneSketch() {
        QuantileSketch whole = QuantileSketch.empty();
        QuantileSketch first = QuantileSketch.empty();
        QuantileSketch second = QuantileSketch.empty();
        for (int v = 1; v <= 10_000; v++) {
            whole.add(v);
            (v % 3 == 0 ? first : second).add(v);
        }
        first.merge(second);
        assertThat(first.quantiles()).isEqualTo(whole.quantiles());
        // exact order statistics of 1..10000 (rank q·(n−1)): p50 ≈ 5000, p99 ≈ 9900
        assertThat(whole.quantiles().get("0.5")).isCloseTo(5000.5, within(5000.5 * 0.01));
        assertThat(whole.quantiles().get("0.99")).isCloseTo(9900.0, within(9900.0 * 0.01));
    }

    /** Everything a partial reports, exactly (doubles as their bits). */
    private static String view(Partial p) {
        Partial decoded = PartialSerde.decode(PartialSerde.encode(p));
        return List.of(decoded.count(), Double.doubleToLongBits(decoded.sum()),
                Double.doubleToLongBits(decoded.sumOfSquares()), decoded.min(), decoded.max(), decoded.mean(),
                decoded.sketch().quantiles(), decoded.points(), decoded.summaries()).toString();
    }

    private static Partial fold(List<BufferedSample> samples) {
        Partial p = Partial.empty(BUCKET, samples.getFirst());
        samples.forEach(p::add);
        return p;
    }

    private static BufferedSample gauge(long t, double v) {
        return new BufferedSample(t, "host", "cpu.cores", SampleKind.GAUGE, v, Map.of("cpu", "0"), null, Map.of());
    }

    private static BufferedSample counter(long t, double v) {
        return new BufferedSample(t, "host", "net.tx.bytes", SampleKind.COUNTER, v, Map.of(), null, Map.of());
    }
}
