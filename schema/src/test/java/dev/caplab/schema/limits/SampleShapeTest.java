package dev.caplab.schema.limits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryStats;
import dev.caplab.schema.event.SummaryWindow;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Each limit of {@link SampleLimits#DEFAULTS} at its value (no problem) and one beyond (the field named). */
class SampleShapeTest {

    private static final Instant AT = Instant.parse("2026-12-03T12:00:00Z");
    private final SampleShape shape = new SampleShape(SampleLimits.DEFAULTS);

    @Test
    void namesAreNotBlankAndAtMost512Bytes() {
        assertThat(shape.nameProblem("run", "r".repeat(512))).isEmpty();
        // 171 three-byte chars = 513 bytes although only 171 chars
        assertProblem(shape.nameProblem("run", "€".repeat(171)), "run", "513 bytes");
        assertProblem(shape.nameProblem("source", " "), "source", "blank");
        assertProblem(shape.nameProblem("metric", ""), "metric", "blank");
        assertProblem(shape.nameProblem("db", null), "db", "blank");
    }

    @Test
    void labelsAreBoundedInCountKeyValueAndTotal() {
        assertThat(shape.labelsProblem(labels(128, 1, 1))).isEmpty();
        assertProblem(shape.labelsProblem(labels(129, 1, 1)), "labels", "129 labels");

        assertThat(shape.labelsProblem(Map.of("k".repeat(256), "v"))).isEmpty();
        assertProblem(shape.labelsProblem(Map.of("k".repeat(257), "v")), "k".repeat(64) + "…", "257 bytes");

        assertThat(shape.labelsProblem(Map.of("tag", "v".repeat(16_384)))).isEmpty();
        assertProblem(shape.labelsProblem(Map.of("tag", "v".repeat(16_385))), "tag", "16385 bytes");
        // 'é' is two UTF-8 bytes: the limit counts bytes, not characters
        assertThat(shape.labelsProblem(Map.of("tag", "é".repeat(8_192)))).isEmpty();
        assertProblem(shape.labelsProblem(Map.of("tag", "é".repeat(8_192) + "v")), "tag", "16385 bytes");
        assertProblem(shape.labelsProblem(Map.of(" ", "v")), "labels", "blank");

        // 4 labels of 8-byte keys and 16,376-byte values: 65,536 bytes exactly; one more byte is refused
        assertThat(shape.labelsProblem(labels(4, 8, 16_376))).isEmpty();
        Map<String, String> over = new LinkedHashMap<>(labels(4, 8, 16_376));
        over.put("x", "");
        assertProblem(shape.labelsProblem(over), "labels", "65537 bytes");
    }

    @Test
    void aLabelWithoutValueCountsItsKeyOnly() {
        Map<String, String> labels = new HashMap<>();
        labels.put("k", null);
        assertThat(shape.labelsProblem(labels)).isEmpty();
    }

    @Test
    void summariesHaveACountOfAtLeastZeroAndQuantilesBoundedLikeLabelsAndNames() {
        assertThat(shape.summaryProblem(null)).isEmpty();
        assertThat(shape.summaryProblem(summary(0, quantiles(128, "0.")))).isEmpty();
        assertProblem(shape.summaryProblem(summary(-1, quantiles(1, "0."))), "summary.count", "-1");
        assertProblem(shape.summaryProblem(summary(5, quantiles(129, "0."))), "summary.quantiles", "129 quantiles");

        assertThat(shape.summaryProblem(summary(5, Map.of("0." + "9".repeat(510), 1.0)))).isEmpty();
        assertProblem(shape.summaryProblem(summary(5, Map.of("0." + "9".repeat(511), 1.0))), "summary.quantiles",
                "513 bytes");
    }

    @Test
    void aSampleIsCheckedSourceMetricLabelsThenSummary() {
        assertThat(shape.problem(sample("host", "cpu.cores", Map.of("k", "v"), null))).isEmpty();
        assertProblem(shape.problem(sample(" ", " ", Map.of(" ", "v"), summary(-1, Map.of()))), "source", "blank");
        assertProblem(shape.problem(sample("host", " ", Map.of(" ", "v"), summary(-1, Map.of()))), "metric",
                "blank");
        assertProblem(shape.problem(sample("host", "m", Map.of(" ", "v"), summary(-1, Map.of()))), "labels",
                "blank");
        assertProblem(shape.problem(sample("host", "m", Map.of(), summary(-1, Map.of()))), "summary.count", "-1");
    }

    @Test
    void aProblemReadsFieldThenReason() {
        assertThat(shape.nameProblem("source", " ").orElseThrow()).hasToString("source: must not be blank");
    }

    @Test
    void anExcerptKeepsTheFirst64Characters() {
        assertThat(SampleShape.excerpt("k".repeat(64))).isEqualTo("k".repeat(64));
        assertThat(SampleShape.excerpt("k".repeat(65))).isEqualTo("k".repeat(64) + "…");
    }

    private static Sample sample(String source, String metric, Map<String, String> labels, SummaryStats summary) {
        return new Sample(AT, source, metric, SampleKind.GAUGE, 1.0, labels, summary);
    }

    private static SummaryStats summary(long count, Map<String, Double> quantiles) {
        return new SummaryStats(SummaryWindow.WINDOW, count, null, null, null, null, quantiles);
    }

    private static Map<String, Double> quantiles(int count, String prefix) {
        Map<String, Double> quantiles = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            quantiles.put(prefix + i, (double) i);
        }
        return quantiles;
    }

    /** {@code count} labels with keys of exactly {@code keyBytes} (zero-padded numbers; "k0".. when under 4). */
    private static Map<String, String> labels(int count, int keyBytes, int valueBytes) {
        Map<String, String> labels = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            labels.put(keyBytes < 4 ? "k" + i : String.format("%0" + keyBytes + "d", i), "v".repeat(valueBytes));
        }
        return labels;
    }

    private static void assertProblem(Optional<SampleProblem> problem, String field, String reasonPart) {
        assertThat(problem).hasValueSatisfying(p -> {
            assertThat(p.field()).isEqualTo(field);
            assertThat(p.reason()).contains(reasonPart);
        });
    }
}
