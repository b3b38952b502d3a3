package dev.caplab.query.steps;

import java.time.Instant;

/**
 * Statistics of one metric from one source over one step, warm-up excluded: sustained (steady-state median) and
 * peak are different numbers and are never to be confused; counters also carry a rate; baselineDelta is sustained
 * minus the run's pre-test baseline; lateSamples reached the step after it first closed and amended it.
 */
public record StepAggregateView(String runId, int stepIndex, Double x, String source, String metric, String kind,
                                long count, long warmupCount, double sustained, double peak, double mean,
                                double min, double max, Double p50, Double p90, Double p95, Double p99,
                                Double ratePerSecond, Double baselineDelta, boolean contaminated,
                                Instant windowStart, Instant windowEnd, long lateSamples) {
}
