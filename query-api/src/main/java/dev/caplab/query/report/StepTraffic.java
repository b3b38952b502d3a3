package dev.caplab.query.report;

/**
 * Throughput and latency of one step against its load: requests completed per second over the step's steady part,
 * the share of them that failed (0–1), and latency quantiles in milliseconds from the step's merged sketch (never
 * averaged across sources: {@code latencySource} names the one series they come from). Null where the step's
 * aggregates hold no such figure.
 */
public record StepTraffic(int stepIndex, Double x, Double requestsPerSecond, Double errorRatio, Double p50Millis,
                          Double p95Millis, Double p99Millis, String latencySource) {

    /** True when the step has any throughput or latency figure to show. */
    public boolean measured() {
        return requestsPerSecond != null || errorRatio != null || p50Millis != null || p95Millis != null
                || p99Millis != null;
    }
}
