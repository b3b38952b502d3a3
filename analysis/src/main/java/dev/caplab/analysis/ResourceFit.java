package dev.caplab.analysis;

import dev.caplab.analysis.capacity.CapacityEstimate;
import dev.caplab.analysis.cliff.CliffDetection;
import dev.caplab.analysis.fit.CandidateScore;
import dev.caplab.analysis.fit.ExistenceTest;
import dev.caplab.analysis.fit.LinearFit;
import dev.caplab.analysis.fit.ModelFit;
import dev.caplab.schema.event.Breakpoint;
import dev.caplab.schema.event.Segment;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything the pipeline keeps about one resource against load: the model chosen by BIC with its
 * segments and breakpoints, every candidate's BIC, the breakpoint existence test, the pre-knee line
 * used for capacity, the cliff verdict and, when a ceiling was given, the safe capacity. {@code chosen} has a
 * breakpoint only where it is a knee ({@code KneeRule}); {@code noKnee} says why the best-scoring segmented model's
 * break was not one (empty when it was, or when the line scored best).
 */
public record ResourceFit(String modelName, String modelVersion, String resource, int stepCount, ModelFit chosen,
                          List<CandidateScore> candidates, Optional<ExistenceTest> existence, LinearFit preKnee,
                          int preKneeSteps, CliffDetection cliff, Optional<CapacityEstimate> capacity,
                          Optional<String> noKnee) {
    public static final String MODEL_NAME = "caplab-resource-fit";
    public static final String MODEL_VERSION = "1";

    public ResourceFit {
        Objects.requireNonNull(modelName, "modelName");
        Objects.requireNonNull(modelVersion, "modelVersion");
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(chosen, "chosen");
        candidates = List.copyOf(candidates);
        Objects.requireNonNull(existence, "existence");
        Objects.requireNonNull(preKnee, "preKnee");
        Objects.requireNonNull(cliff, "cliff");
        Objects.requireNonNull(capacity, "capacity");
        Objects.requireNonNull(noKnee, "noKnee");
    }

    public List<Segment> segments() {
        return chosen.segments();
    }

    public List<Breakpoint> breakpoints() {
        return chosen.breakpoints();
    }

    /** Davies p-value for "at least one breakpoint", NaN when too few steps (< 5) to test. */
    public double breakpointExistencePValue() {
        return existence.map(ExistenceTest::pValue).orElse(Double.NaN);
    }
}
