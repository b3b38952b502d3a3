package dev.caplab.query.throughput;

import java.util.Map;

/**
 * One step's traffic, warm-up excluded: requests completed per second, the failed share, latency percentiles in
 * milliseconds read from the step's merged DDSketch (±1 % of the exact value, never averaged percentiles), the load
 * generator's CPU (% of its machine, null when not sampled), and the step's verdict (null while pending).
 */
public record ThroughputStep(int stepIndex, Map<String, Double> load, Double x, Double requestsPerSecond,
                             Long requests, Double errorRatio, Double latencyP50Ms, Double latencyP95Ms,
                             Double latencyP99Ms, Double loadGeneratorCpuPercent, Boolean passed) {

    public ThroughputStep {
        load = load == null ? Map.of() : Map.copyOf(load);
    }
}
