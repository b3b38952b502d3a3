package dev.caplab.query.throughput;

import dev.caplab.query.format.Figures;
import dev.caplab.schema.vocabulary.Comparisons;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * An SLO rule of the run drawn on the throughput chart: a latency rule (e.g. {@code p95 ≤ 200} ms), an error-ratio
 * rule or a request-rate rule, as the run declared it; {@code axis} is {@code latency}, {@code errors} or {@code rate};
 * {@code condition} is the rule as a person reads it, with its unit, for legends ("p95 ≤ 500 ms").
 */
public record SloLine(String name, String metric, String statistic, String comparator, double threshold,
                      String axis,
                      @Schema(description = "the rule with its unit, as legends write it, e.g. \"p95 ≤ 500 ms\"")
                      String condition) {

    /** A line whose condition is written from the rule: its statistic, comparison and threshold in the axis' unit. */
    public static SloLine of(String name, String metric, String statistic, String comparator, double threshold,
            String axis) {
        String value = switch (axis) {
            case "latency" -> Figures.number(threshold) + " ms";
            case "errors" -> Figures.percent(threshold);
            case "rate" -> Figures.number(threshold) + " requests/s";
            default -> Figures.number(threshold);
        };
        String condition = statistic + " " + Comparisons.symbol(comparator) + " " + value;
        return new SloLine(name, metric, statistic, comparator, threshold, axis, condition);
    }
}
