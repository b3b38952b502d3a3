package dev.caplab.ingest.jmeter;

import dev.caplab.ingest.adapter.FieldException;
import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.ingest.adapter.QuantileKeys;
import dev.caplab.schema.sample.Samples;
import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SummaryStats;
import dev.caplab.schema.event.SummaryWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rows JMeter's InfluxDB backend listener writes to the {@code jmeter} measurement. Each is already aggregated
 * by JMeter per send interval (5 s by default): its counts always, its mean, min, max and percentiles only with
 * {@code backend_metrics_window_mode=timed}; JMeter's default ({@code fixed}) computes those over the last
 * {@code backend_metrics_window} (100) samples, across intervals, which a row does not say. It becomes a SUMMARY
 * with window WINDOW and the label
 * {@code aggregation=jmeter-backend-listener}, never per-request samples. Three shapes exist: per transaction and
 * {@code statut} (all/ok/ko) with count, avg, min, max and {@code pctNN.N}; {@code transaction=internal} with
 * active-thread figures; and error rows tagged with {@code responseCode} carrying only a count.
 * The line-protocol path calls {@link #toSamples} for every line of the {@code jmeter} measurement, and
 * {@link #toAnnotation} for the listener's test start and end markers ({@code events} measurement, string field
 * {@code text}, the Grafana annotation convention).
 */
public final class BackendListenerRows {

    public static final String MEASUREMENT = "jmeter";
    public static final String AGGREGATION = "jmeter-backend-listener";
    /** The measurement of the listener's annotations: {@code events,application=A,title=ApacheJMeter text="T started"}. */
    public static final String ANNOTATION_MEASUREMENT = "events";
    public static final String ANNOTATION_TEXT = "text";
    private static final Pattern PERCENTILE = Pattern.compile("pct(\\d+(?:\\.\\d+)?)");
    private static final Set<String> KNOWN_FIELDS = Set.of("count", "countError", "hit", "avg", "min", "max", "sb",
            "rb", "meanAT", "minAT", "maxAT", "startedT", "endedT");

    private BackendListenerRows() {
    }

    /** Whether the line-protocol path should hand a line of this measurement here. */
    public static boolean handles(String measurement) {
        return MEASUREMENT.equals(measurement);
    }

    /** Whether a line with only string fields is an annotation: the {@code events} measurement with a text. */
    public static boolean isAnnotation(String measurement, Map<String, String> tagsAndStrings) {
        return ANNOTATION_MEASUREMENT.equals(measurement) && tagsAndStrings.containsKey(ANNOTATION_TEXT);
    }

    /** The run's timeline note of an annotation line: its text, the other tags and string fields as labels. */
    public static Annotation toAnnotation(String runId, Instant at, Map<String, String> tagsAndStrings) {
        Map<String, String> labels = new LinkedHashMap<>(tagsAndStrings);
        String text = labels.remove(ANNOTATION_TEXT);
        labels.put(LabelNames.AGGREGATION, AGGREGATION);
        return new Annotation(runId, at, text, labels);
    }

    /**
     * Samples of one backend-listener line: its tags (as labels), numeric fields and timestamp.
     *
     * @throws FieldException naming the field when a value is impossible (negative count, unknown field)
     */
    public static List<Sample> toSamples(Instant at, String source, Map<String, String> tags,
            Map<String, Double> fields) {
        Map<String, String> labels = new LinkedHashMap<>(tags);
        labels.put(LabelNames.AGGREGATION, AGGREGATION);
        String transaction = tags.getOrDefault("transaction", "");
        if (!transaction.isEmpty()) {
            labels.put(LabelNames.NAME, transaction);
        }
        List<Sample> samples = new ArrayList<>();
        if ("internal".equals(transaction)) {
            threads(at, source, labels, fields, samples);
        } else if (tags.containsKey("responseCode")) {
            windowCount(at, source, MetricNames.HTTP_FAILED_WINDOW_COUNT, "count", fields, labels, samples);
        } else if (!fields.containsKey("avg")) {
            // the total row of a window whose every request failed: JMeter's latency figures are of successes
            windowCount(at, source, MetricNames.HTTP_REQS_WINDOW_COUNT, "count", fields, labels, samples);
            windowCount(at, source, MetricNames.HTTP_FAILED_WINDOW_COUNT, "countError", fields, labels, samples);
        } else {
            requests(at, source, labels, fields, samples);
        }
        // fields of newer or patched listeners are kept under their own name rather than dropped
        fields.keySet().stream()
                .filter(f -> !KNOWN_FIELDS.contains(f) && !PERCENTILE.matcher(f).matches())
                .forEach(f -> windowCount(at, source, MEASUREMENT + "." + f, f, fields, labels, samples));
        return samples;
    }

    private static void requests(Instant at, String source, Map<String, String> labels, Map<String, Double> fields,
            List<Sample> out) {
        Map<String, Double> quantiles = new LinkedHashMap<>();
        for (Map.Entry<String, Double> field : fields.entrySet()) {
            Matcher pct = PERCENTILE.matcher(field.getKey());
            if (pct.matches()) {
                quantiles.put(QuantileKeys.fromPercent(pct.group(1)), nonNegative(field.getKey(), field.getValue()));
            }
        }
        SummaryStats stats = SummaryStats.newBuilder()
                .setWindow(SummaryWindow.WINDOW)
                .setCount(Math.round(nonNegative("count", require(fields, "count"))))
                .setMean(nonNegative("avg", require(fields, "avg")))
                .setMin(fields.containsKey("min") ? nonNegative("min", fields.get("min")) : null)
                .setMax(fields.containsKey("max") ? nonNegative("max", fields.get("max")) : null)
                .setQuantiles(quantiles)
                .build();
        out.add(Samples.summary(at, source, MetricNames.HTTP_DURATION_MS, stats, labels));
        windowCount(at, source, MetricNames.HTTP_FAILED_WINDOW_COUNT, "countError", fields, labels, out);
        windowCount(at, source, MetricNames.HTTP_HITS_WINDOW_COUNT, "hit", fields, labels, out);
        windowCount(at, source, MetricNames.HTTP_SENT_WINDOW_BYTES, "sb", fields, labels, out);
        windowCount(at, source, MetricNames.HTTP_RESP_WINDOW_BYTES, "rb", fields, labels, out);
    }

    private static void threads(Instant at, String source, Map<String, String> labels, Map<String, Double> fields,
            List<Sample> out) {
        if (fields.containsKey("meanAT")) {
            SummaryStats stats = SummaryStats.newBuilder()
                    .setWindow(SummaryWindow.WINDOW)
                    .setMean(nonNegative("meanAT", fields.get("meanAT")))
                    .setMin(fields.containsKey("minAT") ? nonNegative("minAT", fields.get("minAT")) : null)
                    .setMax(fields.containsKey("maxAT") ? nonNegative("maxAT", fields.get("maxAT")) : null)
                    .build();
            out.add(Samples.summary(at, source, MetricNames.JMETER_THREADS, stats, labels));
        }
        windowCount(at, source, MetricNames.JMETER_THREADS_STARTED_WINDOW_COUNT, "startedT", fields, labels, out);
        windowCount(at, source, MetricNames.JMETER_THREADS_ENDED_WINDOW_COUNT, "endedT", fields, labels, out);
    }

    /** Counts per send interval are gauges: they restart every window, so they are not monotonic counters. */
    private static void windowCount(Instant at, String source, String metric, String field, Map<String, Double> fields,
            Map<String, String> labels, List<Sample> out) {
        Double value = fields.get(field);
        if (value != null) {
            Map<String, String> windowed = new LinkedHashMap<>(labels);
            windowed.put(LabelNames.WINDOW, "window");
            out.add(Samples.gauge(at, source, metric, nonNegative(field, value), windowed));
        }
    }

    private static double require(Map<String, Double> fields, String field) {
        Double value = fields.get(field);
        if (value == null) {
            throw new FieldException(field, "missing in a jmeter row that has avg");
        }
        return value;
    }

    private static double nonNegative(String field, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new FieldException(field, "expected a finite value >= 0, got " + value);
        }
        return value;
    }
}
