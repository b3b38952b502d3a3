package dev.caplab.store.row;

import java.util.Objects;

/**
 * An SLO rule as a run declares it (Avro {@code SloRule}): a step passes when {@code statistic(metric) comparator
 * threshold} holds, over one source when {@code source} is set. An element of {@code runs.slo_rules} and of the
 * outcomes in {@code step_verdicts.outcomes}.
 */
public record SloRuleValue(String name, String metric, String statistic, String comparator, double threshold,
                           String source) {

    public SloRuleValue {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(statistic, "statistic");
        Objects.requireNonNull(comparator, "comparator");
    }
}
