package dev.caplab.ingest.jmeter;

import static dev.caplab.ingest.jmeter.JtlColumns.ALL_THREADS;
import static dev.caplab.ingest.jmeter.JtlColumns.BYTES;
import static dev.caplab.ingest.jmeter.JtlColumns.CONNECT;
import static dev.caplab.ingest.jmeter.JtlColumns.ELAPSED;
import static dev.caplab.ingest.jmeter.JtlColumns.GRP_THREADS;
import static dev.caplab.ingest.jmeter.JtlColumns.IDLE_TIME;
import static dev.caplab.ingest.jmeter.JtlColumns.LABEL;
import static dev.caplab.ingest.jmeter.JtlColumns.LATENCY;
import static dev.caplab.ingest.jmeter.JtlColumns.SENT_BYTES;
import static dev.caplab.ingest.jmeter.JtlColumns.SUCCESS;
import static dev.caplab.ingest.jmeter.JtlColumns.TIME_STAMP;

import dev.caplab.ingest.adapter.FieldException;
import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.ingest.adapter.ResultBuilder;
import dev.caplab.schema.sample.Samples;
import dev.caplab.ingest.adapter.csv.CsvHeader;
import dev.caplab.ingest.adapter.csv.CsvRow;
import dev.caplab.ingest.adapter.csv.RowMapper;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One JTL row is one request as JMeter saw it: its durations and sizes become GAUGE samples (raw observations,
 * not aggregates) labelled with the request's label, outcome and thread; the active thread counts become gauges
 * so steps can be inferred. Columns JMeter does not define (sample_variables) become labels.
 */
final class JtlRows implements RowMapper {

    private static final Map<String, String> REQUEST_METRICS = orderedMap(
            ELAPSED, MetricNames.HTTP_DURATION_MS,
            LATENCY, MetricNames.HTTP_LATENCY_MS,
            CONNECT, MetricNames.HTTP_CONNECT_MS,
            IDLE_TIME, MetricNames.JMETER_IDLE_MS,
            BYTES, MetricNames.HTTP_RESP_BYTES,
            SENT_BYTES, MetricNames.HTTP_SENT_BYTES);

    private final String source;
    private final List<String> extraLabelColumns;

    JtlRows(CsvHeader header, String source) {
        this.source = source;
        this.extraLabelColumns = header.columns().stream()
                .filter(c -> !JtlColumns.DEFAULT.contains(c) && !JtlColumns.KNOWN_OTHER.contains(c))
                .toList();
    }

    @Override
    public void map(CsvRow row, ResultBuilder out) {
        Instant at = timestamp(row);
        Map<String, String> labels = labels(row);
        for (Map.Entry<String, String> measured : REQUEST_METRICS.entrySet()) {
            Optional<Double> value = row.optionalNumber(measured.getKey());
            if (value.isPresent()) {
                if (value.get() < 0) {
                    throw new FieldException(measured.getKey(), "negative: " + value.get());
                }
                out.sample(Samples.gauge(at, source, measured.getValue(), value.get(), labels));
            }
        }
        Optional<Double> all = row.optionalNumber(ALL_THREADS);
        if (all.isPresent()) {
            out.sample(Samples.gauge(at, source, MetricNames.JMETER_THREADS, all.get(), Map.of()));
        }
        Optional<Double> group = row.optionalNumber(GRP_THREADS);
        if (group.isPresent()) {
            Map<String, String> thread = row.text(JtlColumns.THREAD_NAME).map(t -> Map.of("thread", t))
                    .orElse(Map.of());
            out.sample(Samples.gauge(at, source, MetricNames.JMETER_GROUP_THREADS, group.get(), thread));
        }
    }

    private static Instant timestamp(CsvRow row) {
        String text = row.required(TIME_STAMP).strip();
        if (!text.isEmpty() && text.chars().allMatch(Character::isDigit)) {
            return Instant.ofEpochMilli(row.integer(TIME_STAMP));
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeException e) {
            throw new FieldException(TIME_STAMP, "expected epoch milliseconds or an ISO-8601 instant "
                    + "(set jmeter.save.saveservice.timestamp_format=ms), got '" + text + "'");
        }
    }

    private Map<String, String> labels(CsvRow row) {
        Map<String, String> labels = new LinkedHashMap<>();
        row.text(LABEL).ifPresent(v -> labels.put(LabelNames.NAME, v));
        row.text(SUCCESS).ifPresent(v -> labels.put(SUCCESS, success(v)));
        for (String column : JtlColumns.LABEL_COLUMNS) {
            if (!column.equals(LABEL) && !column.equals(SUCCESS)) {
                row.text(column).filter(v -> !v.isEmpty()).ifPresent(v -> labels.put(column, v));
            }
        }
        for (String column : extraLabelColumns) {
            row.text(column).ifPresent(v -> labels.put(column, v));
        }
        return labels;
    }

    private static String success(String text) {
        String value = text.strip();
        if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
            throw new FieldException(SUCCESS, "expected true or false, got '" + text + "'");
        }
        return value.toLowerCase(java.util.Locale.ROOT);
    }

    private static Map<String, String> orderedMap(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }
}
