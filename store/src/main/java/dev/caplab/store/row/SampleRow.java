package dev.caplab.store.row;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * A row of {@code samples}: one Sample of a SampleBatch with the batch's run id.
 * The {@code summary*} components are null (quantiles empty) unless the tool sent a SummaryStats.
 *
 * <p>A row checks what makes it a row: it belongs to a run, and its time is one ClickHouse stores as it is. The
 * sample's shape (source, metric, labels, summary) is schema's {@code SampleShape} to judge, by whoever makes a row
 * of a Sample, before it does.
 */
public record SampleRow(String runId, Instant ts, String source, String metric, String kind, double value,
                        Map<String, String> labels, String summaryWindow, Long summaryCount,
                        Long summaryWindowMicros, Double summaryMean, Double summaryMin, Double summaryMax,
                        Map<String, Double> summaryQuantiles) implements RunScopedRow {

    public SampleRow {
        Checks.text(runId, "runId");
        Checks.storable(Objects.requireNonNull(ts, "ts"), "ts");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(metric, "metric");
        Checks.text(kind, "kind");
        labels = Checks.map(labels, "labels");
        summaryQuantiles = Checks.map(summaryQuantiles, "summaryQuantiles");
    }

    /** Whether any summary component is set: false for a plain gauge or counter sample. */
    public boolean hasSummary() {
        return summaryWindow != null || summaryCount != null || summaryWindowMicros != null || summaryMean != null
                || summaryMin != null || summaryMax != null || !summaryQuantiles.isEmpty();
    }

    /** A plain gauge/counter sample without summary statistics. */
    public static SampleRow of(String runId, Instant ts, String source, String metric, String kind, double value,
                               Map<String, String> labels) {
        return new SampleRow(runId, ts, source, metric, kind, value, labels, null, null, null, null, null, null,
                Map.of());
    }
}
