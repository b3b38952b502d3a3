package dev.caplab.analysis.verdict;

import java.util.List;

/** What a step produced: its index and its aggregated observations. */
public record StepObservations(int stepIndex, List<Observation> observations) {
    public StepObservations {
        observations = List.copyOf(observations);
        if (stepIndex < 0) {
            throw new IllegalArgumentException("step index must be >= 0, got " + stepIndex);
        }
    }
}
