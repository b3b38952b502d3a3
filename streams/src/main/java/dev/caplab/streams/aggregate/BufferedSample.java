package dev.caplab.streams.aggregate;

import dev.caplab.streams.Micros;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryWindow;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A checked sample on its way into its per-second partial: its series (shared by every sample of that series, see
 * {@code run.SeriesInterner}) and the fields aggregation needs. {@code summaryWindow} is null unless {@code kind}
 * is SUMMARY with statistics attached; {@code summaryCount} is then the observations the summary covers as the tool
 * counted them (0 when it gave none), e.g. a JMeter backend-listener window's requests, and {@code summaryMean} their
 * mean as the tool computed it (NaN when it gave none), e.g. Locust's {@code Total Average Response Time}.
 */
public record BufferedSample(long timestampMicros, SeriesId series, SampleKind kind, double value,
                             SummaryWindow summaryWindow, Map<String, Double> summaryQuantiles, long summaryCount,
                             double summaryMean) {

    public BufferedSample {
        Objects.requireNonNull(series, "series");
        Objects.requireNonNull(kind, "kind");
        summaryQuantiles = Map.copyOf(summaryQuantiles);
        if (summaryCount < 0) {
            throw new IllegalArgumentException("summaryCount must be >= 0: " + summaryCount + " (" + series.key()
                    + ")");
        }
    }

    /** A sample whose summary, if any, carries no mean. */
    public BufferedSample(long timestampMicros, SeriesId series, SampleKind kind, double value,
            SummaryWindow summaryWindow, Map<String, Double> summaryQuantiles, long summaryCount) {
        this(timestampMicros, series, kind, value, summaryWindow, summaryQuantiles, summaryCount, Double.NaN);
    }

    public BufferedSample(long timestampMicros, String source, String metric, SampleKind kind, double value,
            Map<String, String> labels, SummaryWindow summaryWindow, Map<String, Double> summaryQuantiles,
            long summaryCount) {
        this(timestampMicros, SeriesId.of(source, metric, labels), kind, value, summaryWindow, summaryQuantiles,
                summaryCount);
    }

    /** A sample without summary statistics, or a summary whose tool gave no count. */
    public BufferedSample(long timestampMicros, String source, String metric, SampleKind kind, double value,
            Map<String, String> labels, SummaryWindow summaryWindow, Map<String, Double> summaryQuantiles) {
        this(timestampMicros, source, metric, kind, value, labels, summaryWindow, summaryQuantiles, 0);
    }

    /** The sample {@code s} of the series {@code series} (source, metric and labels already taken from it). */
    public static BufferedSample of(Sample s, SeriesId series) {
        Map<String, Double> quantiles = Map.of();
        SummaryWindow window = null;
        long count = 0;
        double mean = Double.NaN;
        if (s.getSummary() != null) {
            window = s.getSummary().getWindow();
            count = s.getSummary().getCount();
            mean = s.getSummary().getMean() == null ? Double.NaN : s.getSummary().getMean();
            Map<String, Double> q = new TreeMap<>();
            s.getSummary().getQuantiles().forEach((k, v) -> q.put(k.toString(), v));
            quantiles = q;
        }
        return new BufferedSample(Micros.of(s.getTimestamp()), series, s.getKind(), s.getValue(), window, quantiles,
                count, mean);
    }

    public static BufferedSample of(Sample s) {
        Map<String, String> labels = new TreeMap<>();
        s.getLabels().forEach((k, v) -> labels.put(k.toString(), v.toString()));
        return of(s, SeriesId.of(s.getSource().toString(), s.getMetric().toString(), labels));
    }

    public String source() {
        return series.source();
    }

    public String metric() {
        return series.metric();
    }

    public Map<String, String> labels() {
        return series.labels();
    }

    /** The identity of the series this sample belongs to: source, metric and labels. */
    public String seriesKey() {
        return series.key();
    }
}
