package dev.caplab.streams.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryWindow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/**
 * Formats 1, 2 and 3 of the partials store and its changelog: what earlier releases wrote must read back the same,
 * and be written again byte for byte (a store restored from its changelog holds all); a WINDOW summary's count, which
 * format 1 did not keep, reads back unknown from it and exact from format 2; a CUMULATIVE summary's totals (count
 * and mean) are kept by format 3.
 */
class PartialSerdeTest {

    private static final long B = 1_700_000_000_000_000L;

    /**
     * Written by the release before the serde read and wrote arrays directly (2499ff5), for: a gauge of five samples
     * (-2, -0.5, 1, 2.5, 4) with non-ASCII labels; a counter of three points; a summary with two quantiles.
     */
    private static final String GAUGE =
            "0100060a24181e400000000005766d2dc2b5000000096370752e636f7265730000000002000000036370750000000130"
            + "000000047a6f6e6500000004c3bc2d31000000000000000501401400000000000001403b800000000000c00000000000"
            + "00004010000000000000000000200ec2f1e7e9ed51f03f0000000000000000050300025c022e02070245028a01020000"
            + "0000";
    private static final String COUNTER =
            "0100060a24181e400000000004686f73740000000c6e65742e74782e6279746573010000000000000000000000030140"
            + "b770000000000001416ab3f000000000408f40000000000040a77000000000000000001a0ec2f1e7e9ed51f03f000000"
            + "00000000000503b8050246022a02000300060a24181e400040a770000000000000060a241822d3e0409f400000000000"
            + "00060a24182767c0408f4000000000000000";
    private static final String SUMMARY =
            "0100060a24181e4000000000026b3600000011687474705f7265715f6475726174696f6e02000000010000000375726c"
            + "0000001368747470733a2f2f746573742e6b362e696f2f00000000000000010140290000000000000140638800000000"
            + "0040290000000000004029000000000000000000160ec2f1e7e9ed51f03f00000000000000000501fe01020000000100"
            + "060a24181e400500000200000003302e35402400000000000000000004302e39354040c00000000000";

    @Test
    void readsAndRewritesTheBytesAnEarlierReleaseWrote() {
        Partial gauge = PartialSerde.decode(HexFormat.of().parseHex(GAUGE));
        assertThat(List.of(gauge.bucketMicros(), gauge.source(), gauge.metric(), gauge.kind(), gauge.labels(),
                gauge.count(), gauge.sum(), gauge.min(), gauge.max())).containsExactly(B, "vm-µ", "cpu.cores",
                SampleKind.GAUGE, Map.of("cpu", "0", "zone", "ü-1"), 5L, 5.0, -2.0, 4.0);
        assertThat(gauge.sumOfSquares()).isEqualTo(4 + 0.25 + 1 + 6.25 + 16);
        assertThat(gauge.labels().keySet()).containsExactly("cpu", "zone");

        Partial counter = PartialSerde.decode(HexFormat.of().parseHex(COUNTER));
        assertThat(counter.kind()).isEqualTo(SampleKind.COUNTER);
        assertThat(counter.labels()).isEmpty();
        assertThat(counter.points()).containsExactly(new TimedValue(B, 3000), new TimedValue(B + 300_000, 2000),
                new TimedValue(B + 600_000, 1000));

        Partial summary = PartialSerde.decode(HexFormat.of().parseHex(SUMMARY));
        assertThat(summary.summaries()).containsExactly(new Partial.SummaryPoint(B + 5, SummaryWindow.WINDOW,
                Map.of("0.5", 10.0, "0.95", 33.5)));
        assertThat(summary.labels()).isEqualTo(Map.of("url", "https://test.k6.io/"));

        for (String hex : List.of(GAUGE, COUNTER, SUMMARY)) {
            byte[] bytes = HexFormat.of().parseHex(hex);
            assertThat(PartialSerde.encode(PartialSerde.decode(bytes))).isEqualTo(bytes);
        }
        // format 1 did not keep the counts of its window summaries: unknown, never zero; none to know for the others
        assertThat(summary.windowCount()).isEmpty();
        assertThat(gauge.windowCount()).hasValue(0);
        assertThat(counter.windowCount()).hasValue(0);
    }

    @Test
    void windowSummaryCountsAreKeptInFormat2AndUnknownStaysUnknownWhenMerged() {
        Partial listener = summaryOf(B, 40, 0.95, 33.5);
        listener.merge(summaryOf(B, 25, 0.95, 31.0));
        byte[] bytes = PartialSerde.encode(listener);
        assertThat(bytes[0]).as("format").isEqualTo((byte) 2);
        Partial back = PartialSerde.decode(bytes);
        assertThat(back.windowCount()).hasValue(65);
        assertThat(back.summaries()).isEqualTo(listener.summaries());
        assertThat(PartialSerde.encode(back)).isEqualTo(bytes);

        Partial old = PartialSerde.decode(HexFormat.of().parseHex(SUMMARY));
        old.merge(sameSeries(old));
        assertThat(old.windowCount()).isEmpty();
        assertThat(PartialSerde.encode(old)[0]).as("format").isEqualTo((byte) 1);

        for (int cut = 1; cut < bytes.length; cut++) {
            byte[] part = Arrays.copyOf(bytes, cut);
            assertThatThrownBy(() -> PartialSerde.decode(part)).as("cut at %d", cut)
                    .isInstanceOf(SerializationException.class);
        }
    }

    @Test
    void partialsOfOneSeriesDecodeToOneSeriesWithUnchangeableLabels() {
        Partial first = PartialSerde.decode(PartialSerde.encode(fold(B, "vm-1", Map.of("cpu", "0"), 1.0)));
        Partial next = PartialSerde.decode(PartialSerde.encode(fold(B + 1_000_000, "vm-1", Map.of("cpu", "0"), 2.0)));
        assertThat(next.series()).isSameAs(first.series());
        Partial other = PartialSerde.decode(PartialSerde.encode(fold(B, "vm-1", Map.of("cpu", "1"), 2.0)));
        assertThat(other.series()).isNotEqualTo(first.series());
        assertThatThrownBy(() -> first.labels().put("cpu", "9")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void moreSeriesThanTheCachesRememberStillReadBackAsTheirOwn() {
        // 3,000 series through caches of 1,024 slots, in random order: replaced and colliding slots included
        SplittableRandom random = new SplittableRandom(5);
        List<Partial> partials = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            partials.add(fold(B + i % 7 * 1_000_000L, "vm-" + i % 11, Map.of("core", Integer.toString(i),
                    "zone", "ü-" + i % 3), i));
        }
        for (int round = 0; round < 3; round++) {
            for (int n = 0; n < partials.size(); n++) {
                Partial p = partials.get(random.nextInt(partials.size()));
                Partial back = PartialSerde.decode(PartialSerde.encode(p));
                assertThat(back.seriesKey()).isEqualTo(p.seriesKey());
                assertThat(List.of(back.bucketMicros(), back.count(), back.sum()))
                        .isEqualTo(List.of(p.bucketMicros(), p.count(), p.sum()));
            }
        }
    }

    @Test
    void everyTruncationAndATrailingByteAreCorrupt() {
        for (String hex : List.of(GAUGE, COUNTER, SUMMARY)) {
            assertEveryTruncationAndATrailingByteAreCorrupt(HexFormat.of().parseHex(hex));
        }
    }

    private static void assertEveryTruncationAndATrailingByteAreCorrupt(byte[] whole) {
        for (int cut = 0; cut < whole.length; cut++) {
            byte[] part = Arrays.copyOf(whole, cut);
            assertThatThrownBy(() -> PartialSerde.decode(part)).as("cut at %d", cut)
                    .isInstanceOf(SerializationException.class);
        }
        assertThatThrownBy(() -> PartialSerde.decode(Arrays.copyOf(whole, whole.length + 1)))
                .isInstanceOf(SerializationException.class);
    }

    @Test
    void cumulativeTotalsAreKeptInFormat3BesideAnUnknownWindowCount() {
        // Locust's history row: since start 120 requests, 35.25 ms on average; then its _stats.csv at the same time
        Partial totals = cumulativeOf(B, 120, 35.25);
        totals.merge(cumulativeOf(B, 123, 35.5));
        byte[] bytes = PartialSerde.encode(totals);
        assertThat(bytes[0]).isEqualTo((byte) 3);
        Partial back = PartialSerde.decode(bytes);
        assertThat(back.summaries()).extracting(Partial.SummaryPoint::count, Partial.SummaryPoint::mean)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(120L, 35.25),
                        org.assertj.core.groups.Tuple.tuple(123L, 35.5));
        assertThat(back.windowCount()).hasValue(0);
        assertThat(PartialSerde.encode(back)).isEqualTo(bytes);

        // a format-1 window summary (count unknown) merged with totals: format 3 keeps both facts
        Partial old = PartialSerde.decode(HexFormat.of().parseHex(SUMMARY));
        BufferedSample cumulative = new BufferedSample(old.bucketMicros() + 9, old.series(), SampleKind.SUMMARY,
                20.0, SummaryWindow.CUMULATIVE, Map.of("0.5", 18.0), 50, 20.0);
        Partial mixed = Partial.empty(old.bucketMicros(), cumulative);
        mixed.add(cumulative);
        mixed.merge(old);
        Partial mixedBack = PartialSerde.decode(PartialSerde.encode(mixed));
        assertThat(mixedBack.windowCount()).isEmpty();
        assertThat(mixedBack.summaries()).isEqualTo(mixed.summaries());
        assertThat(mixedBack.summaries().stream().filter(Partial.SummaryPoint::hasTotals).toList())
                .singleElement().extracting(Partial.SummaryPoint::count).isEqualTo(50L);

        assertEveryTruncationAndATrailingByteAreCorrupt(bytes);
    }

    /** A CUMULATIVE summary with its tool's totals, as a Locust history row becomes. */
    private static Partial cumulativeOf(long bucket, long count, double meanMs) {
        BufferedSample s = new BufferedSample(bucket + 5, SeriesId.of("locust", "http.req.duration.ms",
                Map.of("name", "Aggregated", "window", "cumulative")), SampleKind.SUMMARY, meanMs,
                SummaryWindow.CUMULATIVE, Map.of("0.5", 30.0, "0.95", 90.0), count, meanMs);
        Partial p = Partial.empty(bucket, s);
        p.add(s);
        return p;
    }

    /** A WINDOW summary of {@code count} requests, as a JMeter backend-listener row becomes. */
    private static Partial summaryOf(long bucket, long count, double quantile, double value) {
        BufferedSample s = new BufferedSample(bucket + 5, "jmeter", "http.req.duration.ms", SampleKind.SUMMARY, value,
                Map.of("name", "all"), SummaryWindow.WINDOW, Map.of(Double.toString(quantile), value), count);
        Partial p = Partial.empty(bucket, s);
        p.add(s);
        return p;
    }

    /** A partial of {@code old}'s series and bucket with one window summary of 10 requests. */
    private static Partial sameSeries(Partial old) {
        BufferedSample s = new BufferedSample(old.bucketMicros() + 7, old.series(), SampleKind.SUMMARY, 12.0,
                SummaryWindow.WINDOW, Map.of("0.5", 12.0), 10);
        Partial p = Partial.empty(old.bucketMicros(), s);
        p.add(s);
        return p;
    }

    private static Partial fold(long bucket, String source, Map<String, String> labels, double value) {
        BufferedSample s = new BufferedSample(bucket, source, "cpu.cores", SampleKind.GAUGE, value, labels, null,
                Map.of());
        Partial p = Partial.empty(bucket, s);
        p.add(s);
        return p;
    }
}
