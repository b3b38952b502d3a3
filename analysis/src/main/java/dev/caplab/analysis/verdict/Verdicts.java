package dev.caplab.analysis.verdict;

import dev.caplab.schema.event.Comparator;
import dev.caplab.schema.event.RuleOutcome;
import dev.caplab.schema.event.SloRule;
import dev.caplab.schema.text.Numbers;
import dev.caplab.schema.vocabulary.Comparisons;
import java.util.ArrayList;
import java.util.List;

/**
 * Step verdicts from SLO rules (DESIGN "Verdict"). Max stable load over the verdicts is decided once, with
 * contamination, by {@link dev.caplab.analysis.conclusion.Conclusions#maxStableLoad}.
 */
public final class Verdicts {
    private Verdicts() {
    }

    /**
     * Judges one step, one outcome per rule in the rules' order: a rule passes when it has at least one matching
     * observation and every matching one satisfies it. A rule with no observation fails with reason "no observation"
     * and no observed value — a missing metric must not read as a pass. The observed value is the first failing
     * observation's, else the first matching one's; a passed rule has no reason.
     */
    public static List<RuleOutcome> judge(StepObservations step, List<SloRule> rules) {
        List<RuleOutcome> outcomes = new ArrayList<>(rules.size());
        for (SloRule r : rules) {
            List<Observation> matching = step.observations().stream()
                    .filter(o -> o.metric().equals(r.getMetric()) && o.statistic().equals(r.getStatistic()))
                    .filter(o -> r.getSource() == null || r.getSource().equals(o.source()))
                    .toList();
            if (matching.isEmpty()) {
                outcomes.add(outcome(r, null, "no observation of " + r.getStatistic() + "(" + r.getMetric()
                        + ") in step " + step.stepIndex()));
                continue;
            }
            Observation failing = matching.stream()
                    .filter(o -> !holds(r.getComparator(), o.value(), r.getThreshold())).findFirst().orElse(null);
            if (failing == null) {
                outcomes.add(outcome(r, matching.getFirst().value(), null));
            } else {
                outcomes.add(outcome(r, failing.value(), failing.source() + ": " + Numbers.written(failing.value())
                        + ", not " + Comparisons.symbol(r.getComparator()) + " " + Numbers.written(r.getThreshold())));
            }
        }
        return outcomes;
    }

    /** Whether a step passed its rules: every outcome passed (so a step judged against no rule passes). */
    public static boolean passed(List<RuleOutcome> outcomes) {
        return outcomes.stream().allMatch(RuleOutcome::getPassed);
    }

    /** Whether {@code observed} (comparator) {@code threshold} holds; EQ is exact, for counts such as dropped sessions. */
    public static boolean holds(Comparator comparator, double observed, double threshold) {
        return switch (comparator) {
            case LT -> observed < threshold;
            case LE -> observed <= threshold;
            case GT -> observed > threshold;
            case GE -> observed >= threshold;
            case EQ -> observed == threshold;
        };
    }

    /**
     * {@code rule} when it can be judged: name, metric, statistic and comparator present and a finite threshold (a NaN
     * would fail every comparison, an infinity pass or fail them all). Called where rules are accepted.
     *
     * @throws IllegalArgumentException naming the rule and the field that is wrong
     */
    public static SloRule accepted(SloRule rule) {
        if (rule == null) {
            throw new IllegalArgumentException("SLO rule missing (null in the list of rules)");
        }
        String which = rule.getName() != null ? "SLO rule '" + rule.getName() + "'"
                : "SLO rule on metric " + rule.getMetric();
        require(rule.getName(), which, "name");
        require(rule.getMetric(), which, "metric");
        require(rule.getStatistic(), which, "statistic");
        require(rule.getComparator(), which, "comparator");
        if (!Double.isFinite(rule.getThreshold())) {
            throw new IllegalArgumentException(which + ": threshold must be finite, got " + rule.getThreshold());
        }
        return rule;
    }

    private static void require(Object field, String which, String name) {
        if (field == null) {
            throw new IllegalArgumentException(which + ": " + name + " is missing");
        }
    }

    private static RuleOutcome outcome(SloRule rule, Double observed, String failure) {
        return RuleOutcome.newBuilder().setRule(rule).setObserved(observed).setPassed(failure == null)
                .setReason(failure).build();
    }

}
