package dev.caplab.ingest.remotewrite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.caplab.ingest.remotewrite.NativeHistogram.Bucket;
import dev.caplab.ingest.remotewrite.prompb.Types.BucketSpan;
import dev.caplab.ingest.remotewrite.prompb.Types.Histogram;
import java.util.List;
import org.junit.jupiter.api.Test;

class NativeHistogramTest {

    @Test
    void boundsAreBaseToTheIndexWithBaseTwoToTheMinusSchema() {
        // schema 0: base 2, bucket i is (2^(i-1), 2^i]
        assertThat(NativeHistogram.bound(0, 0)).isEqualTo(1.0);
        assertThat(NativeHistogram.bound(1, 0)).isEqualTo(2.0);
        assertThat(NativeHistogram.bound(-1, 0)).isEqualTo(0.5);
        // schema 1: base sqrt(2); schema 3: base 2^(1/8); schema -1: base 4
        assertThat(NativeHistogram.bound(1, 1)).isCloseTo(1.4142135623730951, within(1e-15));
        assertThat(NativeHistogram.bound(3, 1)).isCloseTo(2.8284271247461903, within(1e-15));
        assertThat(NativeHistogram.bound(-3, 3)).isCloseTo(0.7711054127039704, within(1e-15));
        assertThat(NativeHistogram.bound(2, -1)).isEqualTo(16.0);
        assertThat(NativeHistogram.bound(-1, -2)).isEqualTo(1.0 / 16);
    }

    /**
     * Worked by hand: schema 0, zero bucket ±0.001 holding 2; positive spans (offset 0, length 2), (gap 1, length 1)
     * with deltas 3, -1, +2, i.e. buckets 0, 1, 3 holding 3, 2, 4 = (0.5,1], (1,2], (4,8]; negative span (offset 1,
     * length 1) holding 1 = [-2,-1). Count 12.
     */
    @Test
    void integerBucketsBecomeCumulativeCountsAtTheirUpperBounds() {
        Histogram h = Histogram.newBuilder().setCountInt(12).setSum(21.5).setSchema(0)
                .setZeroThreshold(0.001).setZeroCountInt(2)
                .addPositiveSpans(span(0, 2)).addPositiveSpans(span(1, 1)).addAllPositiveDeltas(List.of(3L, -1L, 2L))
                .addNegativeSpans(span(1, 1)).addNegativeDeltas(1)
                .build();

        NativeHistogram mapped = NativeHistogram.of(h);

        assertThat(mapped.count()).isEqualTo(12);
        assertThat(mapped.sum()).isEqualTo(21.5);
        assertThat(mapped.gauge()).isFalse();
        assertThat(mapped.buckets()).containsExactly(
                new Bucket(-1.0, 1), new Bucket(0.001, 3), new Bucket(1.0, 6), new Bucket(2.0, 8),
                new Bucket(8.0, 12), new Bucket(Double.POSITIVE_INFINITY, 12));
    }

    @Test
    void floatHistogramsCarryAbsoluteCountsAndGaugeHistogramsSaySo() {
        Histogram h = Histogram.newBuilder().setCountFloat(4.5).setSum(3).setSchema(-1)
                .addPositiveSpans(span(-1, 2)).addAllPositiveCounts(List.of(1.5, 3.0))
                .setResetHint(Histogram.ResetHint.GAUGE)
                .build();

        NativeHistogram mapped = NativeHistogram.of(h);

        // schema -1 (base 4): buckets -1 and 0 are (1/16, 1/4] and (1/4, 1]
        assertThat(mapped.buckets()).containsExactly(new Bucket(0.25, 1.5), new Bucket(1.0, 4.5),
                new Bucket(Double.POSITIVE_INFINITY, 4.5));
        assertThat(mapped.gauge()).isTrue();
    }

    @Test
    void inconsistentSpansAndUnknownSchemasAreNamed() {
        Histogram short1 = Histogram.newBuilder().setCountInt(1).addPositiveSpans(span(0, 2)).addPositiveDeltas(1)
                .build();
        Histogram custom = Histogram.newBuilder().setCountInt(1).setSchema(-53).build();

        assertThatThrownBy(() -> NativeHistogram.of(short1)).isInstanceOf(SeriesException.class)
                .hasMessage("spans cover 2 buckets but 1 positive_deltas are given")
                .extracting(e -> ((SeriesException) e).field()).isEqualTo("positive_spans");
        assertThatThrownBy(() -> NativeHistogram.of(custom)).isInstanceOf(SeriesException.class)
                .hasMessageContaining("schema -53");
    }

    private static BucketSpan span(int offset, int length) {
        return BucketSpan.newBuilder().setOffset(offset).setLength(length).build();
    }
}
