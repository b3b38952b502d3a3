package dev.caplab.query.throughput;

import java.util.Map;

/**
 * One step's traffic, warm-up excluded: requests completed per second (a tool's total row and per-endpoint rows
 * counted once), the failed share, latency percentiles in milliseconds, the load generator's CPU (% of its machine,
 * null when not sampled), and the step's verdict (null while pending). {@code latencyCombination} says where the
 * percentiles come from: the step's merged DDSketch of every request (±1 % of the exact value), or, for a tool that
 * ships only its own window percentiles (Locust's history, JMeter's listener), the median of those windows' values;
 * never averaged percentiles. Null when the step has no latency.
 */
public record ThroughputStep(int stepIndex, Map<String, Double> load, Double x, Double requestsPerSecond,
                             Long requests, Double errorRatio, Double latencyP50Ms, Double latencyP95Ms,
                             Double latencyP99Ms, Double loadGeneratorCpuPercent, Boolean passed,
                             String latencyCombination) {

    public ThroughputStep {
        load = load == null ? Map.of() : Map.copyOf(load);
    }
}
