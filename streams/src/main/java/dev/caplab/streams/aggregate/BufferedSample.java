package dev.caplab.streams.aggregate;

import dev.caplab.streams.Micros;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryWindow;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A checked sample on its way into its per-second partial: the fields aggregation needs, in a compact form.
 * {@code summaryWindow} is null unless {@code kind} is SUMMARY with statistics attached.
 */
public record BufferedSample(long timestampMicros, String source, String metric, SampleKind kind, double value,
                             Map<String, String> labels, SummaryWindow summaryWindow,
                             Map<String, Double> summaryQuantiles) {

    public BufferedSample {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(kind, "kind");
        labels = Map.copyOf(labels);
        summaryQuantiles = Map.copyOf(summaryQuantiles);
    }

    public static BufferedSample of(Sample s) {
        Map<String, String> labels = new TreeMap<>();
        s.getLabels().forEach((k, v) -> labels.put(k.toString(), v.toString()));
        Map<String, Double> quantiles = new TreeMap<>();
        SummaryWindow window = null;
        if (s.getSummary() != null) {
            window = s.getSummary().getWindow();
            s.getSummary().getQuantiles().forEach((k, v) -> quantiles.put(k.toString(), v));
        }
        return new BufferedSample(Micros.of(s.getTimestamp()), s.getSource().toString(), s.getMetric().toString(), s.getKind(),
                s.getValue(), labels, window, quantiles);
    }

    /** The identity of the series this sample belongs to: source, metric and labels. */
    public String seriesKey() {
        return source + '\u0000' + metric + '\u0000' + new TreeMap<>(labels);
    }
}
