package dev.caplab.ingest.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.ingest.parse.SampleChecks.LimitException;
import dev.caplab.ingest.publish.SampleChunks;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryStats;
import dev.caplab.schema.event.SummaryWindow;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The door's own limits of {@link IngestLimits#DEFAULTS} (time window, line, record) at their value and one beyond,
 * and that a shape problem is refused with its field named.
 */
class SampleChecksTest {

    private static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");
    /** Kafka's default broker {@code message.max.bytes} (1 MiB + 12), which caplab's topics keep. */
    private static final int BROKER_MAX_MESSAGE_BYTES = 1_048_588;
    private final SampleChecks checks = new SampleChecks(IngestLimits.DEFAULTS);

    /** The shape rule itself is {@code SampleShapeTest}'s; here, that the door refuses what it finds. */
    @Test
    void aShapeProblemIsRefusedNamingItsField() {
        assertThatCode(() -> checks.check("r", sample("host", "cpu.cores", Map.of("k", "v")), NOW))
                .doesNotThrowAnyException();
        assertRefused(() -> checks.check(" ", sample("host", "cpu.cores", Map.of()), NOW), "run", "blank");
        assertRefused(() -> checks.check("r", sample("s".repeat(513), "cpu.cores", Map.of()), NOW), "source",
                "513 bytes");
        assertRefused(() -> checks.check("r", sample("host", " ", Map.of()), NOW), "metric", "blank");
        assertRefused(() -> checks.check("r", sample("host", "cpu.cores", Map.of("tag", "v".repeat(16_385))), NOW),
                "tag", "16385 bytes");
        assertRefused(() -> checks.name("measurement", "€".repeat(171)), "measurement", "513 bytes");
        assertRefused(() -> checks.labels(Map.of(" ", "v")), "labels", "blank");
        assertThat(checks.admitsDerived(sample("host", " ", Map.of("k", "v")))).as("a recipe's metric is its own")
                .isTrue();
        assertThat(checks.admitsDerived(sample(" ", "m", Map.of()))).isFalse();
        assertThat(checks.admitsDerived(sample("host", "m", Map.of("k", "v".repeat(16_385))))).isFalse();
    }

    @Test
    void aSummaryIsCheckedAtTheDoorAsStreamsChecksIt() {
        Sample withSummary = new Sample(NOW, "host", "http.req.duration.ms", SampleKind.SUMMARY, Double.NaN, Map.of(),
                new SummaryStats(SummaryWindow.WINDOW, -1L, null, null, null, null, Map.of("0.95", 12.0)));
        assertRefused(() -> checks.check("r", withSummary, NOW), "summary.count", "-1");
    }

    @Test
    void timestampsLieFrom2000ToOneDayAheadOfTheReceiver() {
        Instant earliest = Instant.parse("2000-01-01T00:00:00Z");
        Instant latest = NOW.plus(Duration.ofDays(1));
        assertThatCode(() -> checks.timestamp("timestamp", earliest, NOW)).doesNotThrowAnyException();
        assertThatCode(() -> checks.timestamp("timestamp", latest, NOW)).doesNotThrowAnyException();
        assertRefused(() -> checks.timestamp("timestamp", earliest.minusNanos(1_000), NOW), "timestamp",
                "outside the accepted range");
        assertRefused(() -> checks.timestamp("timestamp", latest.plusNanos(1_000), NOW), "timestamp",
                "outside the accepted range");
        // what ClickHouse's DateTime64 would have clamped to 1900-01-01 and 2299-12-31
        assertRefused(() -> checks.timestamp("t", Instant.parse("1000-01-01T00:00:00Z"), NOW), "t", "outside");
        assertRefused(() -> checks.timestamp("t", Instant.ofEpochSecond(100_000_000_000L), NOW), "t", "outside");
    }

    @Test
    void linesAreAtMost512KiB() {
        assertThatCode(() -> checks.lineLength(512 * 1024)).doesNotThrowAnyException();
        assertRefused(() -> checks.lineLength(512 * 1024 + 1), null, "524289 bytes");
    }

    /** The sizes the limits promise, measured on real Avro encodings rather than on the code's own estimate. */
    @Test
    void theLargestValidSampleAndEveryChunkOfThemFitOneBrokerRecord() {
        Sample largest = largestValidSample();
        assertThatCode(() -> checks.check("r".repeat(512), largest, NOW)).doesNotThrowAnyException();
        int oneSample = encodedBytes(List.of(largest));
        assertThat(oneSample).isLessThanOrEqualTo(IngestLimits.DEFAULTS.maxSampleBytes() + 600);

        List<Sample> many = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            many.add(largest);
        }
        List<List<Sample>> chunks = SampleChunks.of(many, SampleChunks.MAX_SAMPLES,
                IngestLimits.DEFAULTS.maxRecordBytes());
        assertThat(chunks).hasSizeGreaterThan(1);
        assertThat(chunks.stream().mapToInt(List::size).sum()).isEqualTo(40);
        for (List<Sample> chunk : chunks) {
            assertThat(encodedBytes(chunk)).isLessThan(BROKER_MAX_MESSAGE_BYTES);
        }
    }

    private static Sample largestValidSample() {
        Map<String, String> labels = new LinkedHashMap<>();
        for (int i = 0; i < 3; i++) {
            labels.put(String.format("%0256d", i), "v".repeat(16_384));
        }
        labels.put("last", "w".repeat(65_536 - 3 * (256 + 16_384) - 4));
        return new Sample(NOW, "s".repeat(512), "m".repeat(512), SampleKind.GAUGE, 1.0, labels, null);
    }

    private static int encodedBytes(List<Sample> samples) {
        return EventSerdes.sampleBatch().serialize(TopicCatalog.SAMPLES,
                new SampleBatch("r".repeat(512), "influx-line", NOW, samples)).length;
    }

    private static Sample sample(String source, String metric, Map<String, String> labels) {
        return new Sample(NOW, source, metric, SampleKind.GAUGE, 1.0, labels, null);
    }

    private static void assertRefused(Runnable check, String field, String reasonPart) {
        assertThatThrownBy(check::run).isInstanceOfSatisfying(LimitException.class, e -> {
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.reason()).contains(reasonPart);
        });
    }
}
