package dev.caplab.ingest.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.ingest.parse.SampleChecks.LimitException;
import dev.caplab.ingest.publish.SampleChunks;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each limit of {@link IngestLimits#DEFAULTS} at its value (accepted) and one beyond (refused, field named). */
class SampleChecksTest {

    private static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");
    /** Kafka's default broker {@code message.max.bytes} (1 MiB + 12), which caplab's topics keep. */
    private static final int BROKER_MAX_MESSAGE_BYTES = 1_048_588;
    private final SampleChecks checks = new SampleChecks(IngestLimits.DEFAULTS);

    @Test
    void namesAreNotBlankAndAtMost512Bytes() {
        assertThatCode(() -> checks.name("run", "r".repeat(512))).doesNotThrowAnyException();
        // 171 three-byte chars = 513 bytes although only 171 chars
        assertRefused(() -> checks.name("run", "€".repeat(171)), "run", "513 bytes");
        assertRefused(() -> checks.name("source", " "), "source", "blank");
        assertRefused(() -> checks.name("metric", ""), "metric", "blank");
        assertRefused(() -> checks.name("db", null), "db", "blank");
    }

    @Test
    void labelsAreBoundedInCountKeyValueAndTotal() {
        assertThatCode(() -> checks.labels(labels(128, 1, 1))).doesNotThrowAnyException();
        assertRefused(() -> checks.labels(labels(129, 1, 1)), "labels", "129 labels");

        assertThatCode(() -> checks.labels(Map.of("k".repeat(256), "v"))).doesNotThrowAnyException();
        assertRefused(() -> checks.labels(Map.of("k".repeat(257), "v")), "k".repeat(64) + "…", "257 bytes");

        assertThatCode(() -> checks.labels(Map.of("tag", "v".repeat(16_384)))).doesNotThrowAnyException();
        assertRefused(() -> checks.labels(Map.of("tag", "v".repeat(16_385))), "tag", "16385 bytes");
        assertRefused(() -> checks.labels(Map.of(" ", "v")), "labels", "blank");

        // 4 labels of 8-byte keys and 16,376-byte values: 65,536 bytes exactly; one more byte is refused
        assertThatCode(() -> checks.labels(labels(4, 8, 16_376))).doesNotThrowAnyException();
        Map<String, String> over = new LinkedHashMap<>(labels(4, 8, 16_376));
        over.put("x", "");
        assertRefused(() -> checks.labels(over), "labels", "65537 bytes");
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

    /** {@code count} labels with keys of exactly {@code keyBytes} (zero-padded numbers; "k0".. when under 4). */
    private static Map<String, String> labels(int count, int keyBytes, int valueBytes) {
        Map<String, String> labels = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            labels.put(keyBytes < 4 ? "k" + i : String.format("%0" + keyBytes + "d", i), "v".repeat(valueBytes));
        }
        return labels;
    }

    private static void assertRefused(Runnable check, String field, String reasonPart) {
        assertThatThrownBy(check::run).isInstanceOfSatisfying(LimitException.class, e -> {
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.reason()).contains(reasonPart);
        });
    }
}
