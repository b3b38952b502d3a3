package dev.caplab.analysis.verdict;

import dev.caplab.schema.text.Numbers;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Step verdicts from SLO rules. Max stable load over the verdicts is decided once, with contamination, by
 * {@link dev.caplab.analysis.conclusion.Conclusions#maxStableLoad}.
 */
public final class Verdicts {
    private Verdicts() {
    }

    /**
     * Judges one step: a rule passes when it has at least one matching observation and every matching one
     * satisfies it. A rule with no observation fails with reason "no observation" — a missing metric must
     * not read as a pass.
     */
    public static StepVerdict evaluate(StepObservations step, List<SloRule> rules) {
        List<RuleOutcome> outcomes = new ArrayList<>(rules.size());
        for (SloRule r : rules) {
            List<Observation> matching = step.observations().stream()
                    .filter(o -> o.metric().equals(r.metric()) && o.statistic().equals(r.statistic()))
                    .filter(o -> r.source().map(o.source()::equals).orElse(true))
                    .toList();
            if (matching.isEmpty()) {
                outcomes.add(new RuleOutcome(r, OptionalDouble.empty(), false,
                        "no observation of " + r.statistic() + "(" + r.metric() + ") in step " + step.stepIndex()));
                continue;
            }
            Observation failing = matching.stream().filter(o -> !r.comparator().holds(o.value(), r.threshold()))
                    .findFirst().orElse(null);
            if (failing == null) {
                outcomes.add(new RuleOutcome(r, OptionalDouble.of(matching.getFirst().value()), true, ""));
            } else {
                outcomes.add(new RuleOutcome(r, OptionalDouble.of(failing.value()), false, failing.source() + ": "
                        + Numbers.written(failing.value()) + ", not " + r.comparator().symbol() + " "
                        + Numbers.written(r.threshold())));
            }
        }
        return new StepVerdict(StepVerdict.MODEL_NAME, StepVerdict.MODEL_VERSION, step.stepIndex(), step.load(),
                outcomes.stream().allMatch(RuleOutcome::passed), outcomes);
    }

    /** Judges every step. */
    public static List<StepVerdict> evaluateAll(List<StepObservations> steps, List<SloRule> rules) {
        return steps.stream().map(s -> evaluate(s, rules)).toList();
    }
}
