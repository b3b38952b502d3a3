package dev.caplab.query.throughput;

import java.util.List;

/**
 * Throughput and latency against load for one run: per step rate, errors and latency percentiles, the throughput
 * limit (null when the request rate never stopped growing, or too few steps to tell), the SLO thresholds to draw, and
 * warnings (the load generator, not the server, was the limit).
 */
public record RunThroughput(String runId, String loadExpression, List<ThroughputStep> steps,
                            ThroughputLimitView throughputLimit, List<SloLine> sloLines, List<String> warnings) {

    public RunThroughput {
        steps = List.copyOf(steps);
        sloLines = List.copyOf(sloLines);
        warnings = List.copyOf(warnings);
    }
}
