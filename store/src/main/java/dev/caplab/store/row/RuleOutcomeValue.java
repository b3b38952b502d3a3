package dev.caplab.store.row;

import java.util.Objects;

/** How a step fared against one SLO rule (Avro {@code RuleOutcome}); an element of {@code step_verdicts.outcomes}. */
public record RuleOutcomeValue(SloRuleValue rule, Double observed, boolean passed, String reason) {

    public RuleOutcomeValue {
        Objects.requireNonNull(rule, "rule");
    }
}
