package dev.caplab.analysis.bottleneck;

import java.util.Map;

/** Sustained usage of each resource during one step, keyed by resource name (same names as the ceilings). */
public record StepUsage(int stepIndex, double load, Map<String, Double> usage) {
    public StepUsage {
        usage = Map.copyOf(usage);
    }
}
