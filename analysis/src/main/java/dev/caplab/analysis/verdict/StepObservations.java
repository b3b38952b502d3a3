package dev.caplab.analysis.verdict;

import java.util.List;

/** What a step produced: its index, its load (the fit's x) and its aggregated observations. */
public record StepObservations(int stepIndex, double load, List<Observation> observations) {
    public StepObservations {
        observations = List.copyOf(observations);
        if (stepIndex < 0) {
            throw new IllegalArgumentException("step index must be >= 0, got " + stepIndex);
        }
    }
}
