package dev.caplab.query.throughput;

import java.util.Map;

/**
 * One step's traffic, warm-up excluded: requests completed per second (a tool's total row and per-endpoint rows
 * counted once), the failed share, latency percentiles in milliseconds, the load generator's CPU (% of its machine,
 * null when not sampled), and the step's verdict (null while pending). {@code latencyCombination} says where the
 * percentiles come from: the step's merged DDSketch of every request (±1 % of the exact value), or, for a tool that
 * ships only its own window percentiles (Locust's history, JMeter's listener), the median of those windows' values;
 * never averaged percentiles. Null when the step has no latency. {@code latencyMeanMs} is the mean latency of the
 * step's steady requests, exact: of every request's sample, or from the tool's own since-start totals (Locust's
 * Total Request Count and Total Average Response Time, their difference across the step) when it sent no per-request
 * samples; {@code latencyMeanFrom} says which (null without a mean).
 */
public record ThroughputStep(int stepIndex, Map<String, Double> load, Double x, Double requestsPerSecond,
                             Long requests, Double errorRatio, Double latencyP50Ms, Double latencyP95Ms,
                             Double latencyP99Ms, Double loadGeneratorCpuPercent, Boolean passed,
                             String latencyCombination, Double latencyMeanMs, String latencyMeanFrom) {

    public ThroughputStep {
        load = load == null ? Map.of() : Map.copyOf(load);
    }
}
