package dev.caplab.query.steps;

import java.util.List;
import java.util.Optional;

/** Reads steps, verdicts and step aggregates of runs from the store. */
public interface StepReader {

    /** The run's steps with their verdicts, by step index. */
    List<StepView> steps(String runId);

    /** The run's step aggregates by step, source and metric; a null filter matches everything. */
    List<StepAggregateView> aggregates(String runId, Optional<String> metric, Optional<String> source);
}
