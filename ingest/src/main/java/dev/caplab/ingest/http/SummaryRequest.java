package dev.caplab.ingest.http;

import com.fasterxml.jackson.annotation.JsonFormat;
import dev.caplab.ingest.lifecycle.InvalidLifecycleRequestException;
import dev.caplab.schema.event.SummaryStats;
import dev.caplab.schema.event.SummaryWindow;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The statistics a tool already aggregated, on a {@code summary} sample of an events batch: the window they cover
 * ({@code window}: the reporting interval, or {@code cumulative} since the test started), how many observations,
 * mean/min/max, and quantiles keyed by their level in [0, 1] as a decimal string ({@code "0.95"}).
 */
@Schema(description = "Pre-aggregated statistics of a summary sample (e.g. Locust's percentiles)")
public record SummaryRequest(
        @JsonFormat(with = JsonFormat.Feature.ACCEPT_CASE_INSENSITIVE_VALUES)
        @Schema(description = "WINDOW (the reporting interval) or CUMULATIVE (since the test started); any case")
        SummaryWindow window,
        Long count,
        @Schema(description = "length of the window in microseconds, when known") Long windowMicros,
        Double mean, Double min, Double max,
        @Schema(example = "{\"0.5\": 17, \"0.95\": 44}") Map<String, Double> quantiles) {

    public SummaryRequest {
        window = window == null ? SummaryWindow.WINDOW : window;
        count = count == null ? 0L : count;
        if (count < 0) {
            throw invalid("count must be >= 0, was " + count);
        }
        if (windowMicros != null && windowMicros <= 0) {
            throw invalid("windowMicros must be > 0, was " + windowMicros);
        }
        requireFinite("mean", mean);
        requireFinite("min", min);
        requireFinite("max", max);
        quantiles = quantiles == null ? Map.of() : quantiles;
        for (Map.Entry<String, Double> q : quantiles.entrySet()) {
            double level;
            try {
                level = Double.parseDouble(q.getKey());
            } catch (NumberFormatException | NullPointerException e) {
                throw invalid("quantile key '" + q.getKey() + "' is not a number in [0, 1]");
            }
            if (!(level >= 0 && level <= 1)) {
                throw invalid("quantile key '" + q.getKey() + "' is outside [0, 1]");
            }
            requireFinite("quantiles." + q.getKey(), q.getValue());
            if (q.getValue() == null) {
                throw invalid("quantiles." + q.getKey() + " is required");
            }
        }
        quantiles = Map.copyOf(quantiles);
    }

    /** The Avro statistics of the sample. */
    SummaryStats toStats() {
        return new SummaryStats(window, count, windowMicros, mean, min, max, new LinkedHashMap<>(quantiles));
    }

    private static void requireFinite(String field, Double value) {
        if (value != null && !Double.isFinite(value)) {
            throw invalid(field + " must be finite, was " + value);
        }
    }

    private static InvalidLifecycleRequestException invalid(String reason) {
        return new InvalidLifecycleRequestException("summary." + reason);
    }
}
