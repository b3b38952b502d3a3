package dev.caplab.analysis.verdict;

import java.util.List;

/** A step passes when every rule passes (DESIGN "Verdict"); carries each rule's outcome. */
public record StepVerdict(String modelName, String modelVersion, int stepIndex, double load, boolean passed,
                          List<RuleOutcome> outcomes) {
    public static final String MODEL_NAME = "slo-verdict";
    public static final String MODEL_VERSION = "1";

    public StepVerdict {
        outcomes = List.copyOf(outcomes);
        if (passed != outcomes.stream().allMatch(RuleOutcome::passed)) {
            throw new IllegalArgumentException("step " + stepIndex + ": passed=" + passed + " contradicts its outcomes");
        }
    }
}
