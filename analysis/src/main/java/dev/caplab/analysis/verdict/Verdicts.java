package dev.caplab.analysis.verdict;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Step verdicts from SLO rules, and max stable load = the last passing step before the first failing one
 * (EP19 §1.1: "the moment a step fails … the previous step is that machine's maximum stable concurrency").
 */
public final class Verdicts {
    private Verdicts() {
    }

    /**
     * Judges one step: a rule passes when it has at least one matching observation and every matching one
     * satisfies it. A rule with no observation fails with reason "no observation" — a missing metric must
     * not read as a pass.
     */
    public static StepVerdict evaluate(StepStatistics step, List<SloRule> rules) {
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
                        + failing.value() + " not " + r.comparator() + " " + r.threshold()));
            }
        }
        return new StepVerdict(StepVerdict.MODEL_NAME, StepVerdict.MODEL_VERSION, step.stepIndex(), step.load(),
                outcomes.stream().allMatch(RuleOutcome::passed), outcomes);
    }

    /** Judges every step. */
    public static List<StepVerdict> evaluateAll(List<StepStatistics> steps, List<SloRule> rules) {
        return steps.stream().map(s -> evaluate(s, rules)).toList();
    }

    /** Last pass before the first fail, steps taken in step-index order. */
    public static MaxStableLoad maxStableLoad(List<StepVerdict> verdicts) {
        List<StepVerdict> ordered = verdicts.stream().sorted(Comparator.comparingInt(StepVerdict::stepIndex)).toList();
        StepVerdict lastPass = null;
        for (StepVerdict v : ordered) {
            if (!v.passed()) {
                return new MaxStableLoad(lastPass == null ? OptionalDouble.empty() : OptionalDouble.of(lastPass.load()),
                        lastPass == null ? -1 : lastPass.stepIndex(), v.stepIndex(), OptionalDouble.of(v.load()), true);
            }
            lastPass = v;
        }
        return new MaxStableLoad(lastPass == null ? OptionalDouble.empty() : OptionalDouble.of(lastPass.load()),
                lastPass == null ? -1 : lastPass.stepIndex(), -1, OptionalDouble.empty(), false);
    }
}
