package dev.caplab.analysis.verdict;

import java.util.Objects;
import java.util.OptionalDouble;

/** How one step fared against one rule: the value observed (worst over sources) and why it failed, if it did. */
public record RuleOutcome(SloRule rule, OptionalDouble observed, boolean passed, String reason) {
    public RuleOutcome {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(observed, "observed");
        reason = reason == null ? "" : reason;
    }
}
