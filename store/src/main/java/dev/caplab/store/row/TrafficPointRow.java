package dev.caplab.store.row;

import java.util.Map;

/**
 * One point of a low-volume traffic series (a counter, a tool's window summary or window count) with its series'
 * metric, kind and labels: time in epoch microseconds, value, and for summaries the window kind, count and quantiles.
 */
public record TrafficPointRow(String seriesId, String source, String metric, String kind, Map<String, String> labels,
                              long micros, double value, String summaryWindow, Long summaryCount,
                              Map<String, Double> summaryQuantiles) {

    public TrafficPointRow {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        summaryQuantiles = summaryQuantiles == null ? Map.of() : Map.copyOf(summaryQuantiles);
    }
}
