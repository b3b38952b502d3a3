package dev.caplab.query.throughput;

import dev.caplab.query.format.Figures;
import dev.caplab.schema.event.SloRule;
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

    /**
     * The line of {@code rule}, its comparator by name; its condition written from the rule: its statistic,
     * comparison and threshold in the axis' unit.
     */
    public static SloLine of(SloRule rule, String axis) {
        double threshold = rule.getThreshold();
        String value = switch (axis) {
            case "latency" -> Figures.number(threshold) + " ms";
            case "errors" -> Figures.percent(threshold);
            case "rate" -> Figures.number(threshold) + " requests/s";
            default -> Figures.number(threshold);
        };
        String condition = rule.getStatistic() + " " + Comparisons.symbol(rule.getComparator()) + " " + value;
        return new SloLine(rule.getName(), rule.getMetric(), rule.getStatistic(), rule.getComparator().name(),
                threshold, axis, condition);
    }
}
