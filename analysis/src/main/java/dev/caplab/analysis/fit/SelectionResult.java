package dev.caplab.analysis.fit;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The model chosen by smallest BIC, every candidate's score, and the breakpoint existence test when it could run. */
public record SelectionResult(ModelFit chosen, List<CandidateScore> candidates, Optional<ExistenceTest> existence) {
    public SelectionResult {
        Objects.requireNonNull(chosen, "chosen");
        candidates = List.copyOf(candidates);
        Objects.requireNonNull(existence, "existence");
    }
}
