package dev.caplab.analysis.verdict;

import java.util.Objects;

/** One aggregated statistic of one metric from one source during a step, e.g. p95 of latency from client-1. */
public record Observation(String metric, String statistic, String source, double value) {
    public Observation {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(statistic, "statistic");
        Objects.requireNonNull(source, "source");
    }
}
