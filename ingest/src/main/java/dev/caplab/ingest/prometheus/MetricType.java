package dev.caplab.ingest.prometheus;

import java.util.Locale;

/** The {@code # TYPE} of a metric family in the text exposition (Prometheus 0.0.4 and OpenMetrics). */
enum MetricType {
    COUNTER, GAUGE, HISTOGRAM, GAUGEHISTOGRAM, SUMMARY, INFO, STATESET, UNTYPED, UNKNOWN;

    static MetricType of(String text) {
        try {
            return valueOf(text.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return UNTYPED;
        }
    }
}
