package dev.caplab.query.throughput;

/**
 * An SLO rule of the run drawn on the throughput chart: a latency rule (e.g. {@code p95 ≤ 200} ms), an error-ratio
 * rule or a request-rate rule, as the run declared it; {@code axis} is {@code latency}, {@code errors} or {@code rate}.
 */
public record SloLine(String name, String metric, String statistic, String comparator, double threshold,
                      String axis) {
}
