package dev.caplab.ingest.locust;

import dev.caplab.schema.vocabulary.Statistics;
import dev.caplab.ingest.adapter.FieldException;
import dev.caplab.ingest.adapter.QuantileKeys;
import dev.caplab.ingest.adapter.csv.CsvHeader;
import dev.caplab.ingest.adapter.csv.CsvRow;
import dev.caplab.schema.event.SummaryStats;
import dev.caplab.schema.event.SummaryWindow;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads Locust's response-time columns, shared by {@code _stats.csv} and {@code _stats_history.csv}: the percentile
 * columns ("50%" … "100%", as configured by {@code PERCENTILES_TO_REPORT}) and the count/mean/min/max totals.
 */
final class ResponseTimes {

    static final String NOT_AVAILABLE = "N/A";
    private static final Pattern PERCENT_COLUMN = Pattern.compile("\\d+(\\.\\d+)?%");

    private ResponseTimes() {
    }

    static List<String> percentileColumns(CsvHeader header) {
        return header.columns().stream().filter(c -> PERCENT_COLUMN.matcher(c).matches()).toList();
    }

    /** Quantile → milliseconds; empty when Locust wrote N/A (no requests yet). */
    static Map<String, Double> quantiles(CsvRow row, List<String> columns) {
        Map<String, Double> quantiles = new LinkedHashMap<>();
        for (String column : columns) {
            Optional<Double> ms = row.optionalNumber(column, NOT_AVAILABLE);
            if (ms.isEmpty()) {
                continue;
            }
            requireNonNegative(column, ms.get());
            quantiles.put(QuantileKeys.fromPercent(column.substring(0, column.length() - 1)), ms.get());
        }
        return quantiles;
    }

    /** Totals since start; the median column joins the quantiles as "0.5" unless a percentile column gave it. */
    static SummaryStats cumulative(CsvRow row, Columns columns, Map<String, Double> quantiles) {
        long count = row.integer(columns.count());
        Map<String, Double> all = new LinkedHashMap<>(quantiles);
        all.putIfAbsent(Statistics.Q50, requireNonNegative(columns.median(), row.number(columns.median())));
        return SummaryStats.newBuilder()
                .setWindow(SummaryWindow.CUMULATIVE)
                .setCount(count)
                .setMean(requireNonNegative(columns.mean(), row.number(columns.mean())))
                .setMin(requireNonNegative(columns.min(), row.number(columns.min())))
                .setMax(requireNonNegative(columns.max(), row.number(columns.max())))
                .setQuantiles(all)
                .build();
    }

    static double requireNonNegative(String column, double value) {
        if (value < 0) {
            throw new FieldException(column, "negative: " + value);
        }
        return value;
    }

    /** The names of the total columns, which differ between the stats and the history file. */
    record Columns(String count, String failures, String median, String mean, String min, String max,
            String contentSize) {

        static final Columns STATS = new Columns("Request Count", "Failure Count", "Median Response Time",
                "Average Response Time", "Min Response Time", "Max Response Time", "Average Content Size");
        static final Columns HISTORY = new Columns("Total Request Count", "Total Failure Count",
                "Total Median Response Time", "Total Average Response Time", "Total Min Response Time",
                "Total Max Response Time", "Total Average Content Size");
    }
}
