package dev.caplab.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryStats;
import dev.caplab.schema.event.SummaryWindow;
import dev.caplab.schema.limits.SampleLimits;
import dev.caplab.schema.limits.SampleShape;
import dev.caplab.store.row.SampleRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A batch's valid samples become rows; each sample the shape or the column refuses is set aside on its own. */
class SampleRowsTest {

    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
    /** Small limits, so a test names its numbers: 16-byte names, 2 labels of 8-byte keys and values, 24 in all. */
    private static final SampleRows ROWS = new SampleRows(new SampleShape(new SampleLimits(16, 2, 8, 8, 24)));

    @Test
    void everyValidSampleIsARowAndEachBadOneIsSetAsideNamingFieldAndSeries() {
        SampleBatch batch = batch("run-1", List.of(
                sample("host", "cpu", 1, Map.of("zone", "a")).build(),
                sample(" ", "cpu", 2, Map.of()).build(),
                sample("host", "cpu", 3, Map.of("zone", "123456789")).build(),
                sample("host", "cpu", 4, Map.of()).build(),
                sample("host", "cpu", 5, Map.of()).setTimestamp(Instant.parse("2300-01-01T00:00:00Z")).build(),
                sample("host", "", 6, Map.of()).build(),
                sample("client", "latency", 7, Map.of()).build()));

        SampleRows.Split split = ROWS.split(batch);

        assertThat(split.rows()).extracting(SampleRow::value).containsExactly(1.0, 4.0, 7.0);
        assertThat(split.rows()).extracting(SampleRow::runId).containsOnly("run-1");
        assertThat(split.rows().getFirst().labels()).isEqualTo(Map.of("zone", "a"));
        assertThat(split.setAside()).extracting(Sample::getValue).containsExactly(2.0, 3.0, 5.0, 6.0);
        assertThat(split.problems()).containsExactly(
                "source: must not be blank (series  , cpu)",
                "zone: label value is 9 bytes, over the limit of 8 bytes (series host, cpu)",
                "row: ts 2300-01-01T00:00:00Z is outside what ClickHouse's DateTime64 stores "
                        + "(1900-01-01T00:00:00Z .. 2299-12-31T23:59:59.999999Z) (series host, cpu)",
                "metric: must not be blank (series host, )");
        assertThat(split.reason()).startsWith("4 of 7 samples set aside, not stored raw: source: must not be blank")
                .doesNotEndWith("…");
        SampleBatch letter = split.setAsideBatch();
        assertThat(letter.getRunId().toString()).isEqualTo("run-1");
        assertThat(letter.getAdapter().toString()).isEqualTo("test");
        assertThat(letter.getSamples()).extracting(Sample::getValue).containsExactly(2.0, 3.0, 5.0, 6.0);
    }

    @Test
    void aSummaryTheShapeRefusesIsSetAsideToo() {
        Sample negativeCount = sample("host", "latency", 1, Map.of())
                .setSummary(SummaryStats.newBuilder().setWindow(SummaryWindow.WINDOW).setCount(-1)
                        .setWindowMicros(1_000_000L).setMean(1.0).setMin(1.0).setMax(1.0).setQuantiles(Map.of())
                        .build()).build();
        SampleRows.Split split = ROWS.split(batch("run-1",
                List.of(negativeCount, sample("host", "cpu", 2, Map.of()).build())));
        assertThat(split.rows()).extracting(SampleRow::value).containsExactly(2.0);
        assertThat(split.problems()).containsExactly("summary.count: is -1, must be >= 0 (series host, latency)");
    }

    @Test
    void aReasonListsTheFirstFiveProblemsAndCountsThemAll() {
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            samples.add(sample(" ", "m" + i, i, Map.of()).build());
        }
        samples.add(sample("host", "cpu", 9, Map.of()).build());
        SampleRows.Split split = ROWS.split(batch("run-1", samples));
        assertThat(split.rows()).hasSize(1);
        assertThat(split.setAside()).hasSize(8);
        assertThat(split.problems()).hasSize(SampleRows.LISTED_PROBLEMS).last().asString().contains("m4");
        assertThat(split.reason()).startsWith("8 of 9 samples set aside").endsWith("(series  , m4); …");
    }

    @Test
    void aBatchWithoutAValidRunIdHasNoRowAtAll() {
        Sample valid = sample("host", "cpu", 1, Map.of()).build();
        assertThatThrownBy(() -> ROWS.split(batch(" ", List.of(valid))))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("run id: must not be blank");
        assertThatThrownBy(() -> ROWS.split(batch("r".repeat(17), List.of(valid))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("run id: name is 17 bytes, over the limit of 16 bytes");
    }

    @Test
    void aBatchOfValidSamplesSetsNothingAside() {
        SampleRows.Split split = new SampleRows().split(batch("run-1",
                List.of(sample("host", "cpu", 1, Map.of()).build())));
        assertThat(split.rows()).hasSize(1);
        assertThat(split.setAside()).isEmpty();
    }

    private static Sample.Builder sample(String source, String metric, double value, Map<String, String> labels) {
        return Sample.newBuilder().setTimestamp(T.plusSeconds((long) value)).setSource(source).setMetric(metric)
                .setKind(SampleKind.GAUGE).setValue(value).setLabels(Map.copyOf(labels));
    }

    private static SampleBatch batch(String runId, List<Sample> samples) {
        return SampleBatch.newBuilder().setRunId(runId).setAdapter("test").setReceivedAt(T).setSamples(samples)
                .build();
    }
}
