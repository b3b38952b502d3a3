package dev.caplab.schema.sample;

import dev.caplab.schema.vocabulary.Statistics;
import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryStats;
import dev.caplab.schema.event.SummaryWindow;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds the Avro {@link Sample} records adapters emit, so every adapter fills kinds and labels the same way. */
public final class Samples {

    private Samples() {
    }

    public static Sample gauge(Instant at, String source, String metric, double value, Map<String, String> labels) {
        return of(at, source, metric, SampleKind.GAUGE, value, labels, null);
    }

    /** A monotonic total (bytes sent, requests so far); downstream turns deltas of it into rates. */
    public static Sample counter(Instant at, String source, String metric, double value, Map<String, String> labels) {
        return of(at, source, metric, SampleKind.COUNTER, value, labels, null);
    }

    /**
     * Statistics the tool aggregated itself. {@code value} is the mean when the tool reports one, else the median,
     * else the lowest quantile given: consumers that only look at {@code value} still get a central figure; the
     * window is in the labels too.
     */
    public static Sample summary(Instant at, String source, String metric, SummaryStats stats,
            Map<String, String> labels) {
        Double central = stats.getMean() != null ? stats.getMean() : stats.getQuantiles().get(Statistics.Q50);
        if (central == null) {
            central = stats.getQuantiles().entrySet().stream()
                    .min(Map.Entry.comparingByKey(java.util.Comparator.comparing(java.math.BigDecimal::new)))
                    .map(Map.Entry::getValue)
                    .orElseThrow(() -> new IllegalArgumentException(metric + ": a summary needs a mean or quantiles"));
        }
        Map<String, String> withWindow = new LinkedHashMap<>(labels);
        withWindow.put(LabelNames.WINDOW, stats.getWindow() == SummaryWindow.WINDOW ? "window" : "cumulative");
        return of(at, source, metric, SampleKind.SUMMARY, central, withWindow, stats);
    }

    private static Sample of(Instant at, String source, String metric, SampleKind kind, double value,
            Map<String, String> labels, SummaryStats stats) {
        return Sample.newBuilder()
                .setTimestamp(at)
                .setSource(source)
                .setMetric(metric)
                .setKind(kind)
                .setValue(value)
                .setLabels(new LinkedHashMap<>(labels))
                .setSummary(stats)
                .build();
    }
}
