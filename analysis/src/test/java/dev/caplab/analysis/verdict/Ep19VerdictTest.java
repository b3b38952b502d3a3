package dev.caplab.analysis.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.analysis.conclusion.Conclusions;
import dev.caplab.analysis.conclusion.StableLoad;
import dev.caplab.analysis.conclusion.StepJudgement;
import dev.caplab.analysis.conclusion.StepStatus;
import dev.caplab.schema.event.Comparator;
import dev.caplab.schema.event.RuleOutcome;
import dev.caplab.schema.event.SloRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * EP19 §3 (seed 002), three reports: LightNode 2 vCPU 12→25→50 pass, 75 fails (connect timeouts, dropped
 * frames); AWS Lightsail 12…250 pass, 300 fails; LightNode 1 vCPU 10, 15, 17, 18 pass, 19 fails. The rule
 * set is the report's: every session connects, none disconnects, no dropped frames.
 */
class Ep19VerdictTest {
    private static final List<SloRule> RULES = List.of(
            rule("all connected", "sessions.failed", "max", Comparator.EQ, 0),
            rule("no disconnects", "sessions.dropped", "max", Comparator.EQ, 0),
            rule("no dropped frames", "frames.dropped", "rate", Comparator.LE, 0));

    /** A rule over every source. */
    private static SloRule rule(String name, String metric, String statistic, Comparator comparator,
            double threshold) {
        return SloRule.newBuilder().setName(name).setMetric(metric).setStatistic(statistic).setComparator(comparator)
                .setThreshold(threshold).build();
    }

    private static StepObservations step(int index, boolean bad) {
        return new StepObservations(index, List.of(
                new Observation("sessions.failed", "max", "whep-loadgen", bad ? 7 : 0),
                new Observation("sessions.dropped", "max", "whep-loadgen", 0),
                new Observation("frames.dropped", "rate", "node", bad ? 12.5 : 0)));
    }

    /** Each step at its load judged against {@link #RULES}, as the conclusion reads it: none contaminated. */
    private static List<StepJudgement> judged(double[] loads, int firstFailing) {
        List<StepJudgement> out = new ArrayList<>();
        for (int i = 0; i < loads.length; i++) {
            out.add(judgement(i, loads[i], Verdicts.judge(step(i, i >= firstFailing), RULES)));
        }
        return out;
    }

    private static StepJudgement judgement(int index, double load, List<RuleOutcome> outcomes) {
        return new StepJudgement(index, OptionalDouble.of(load),
                Verdicts.passed(outcomes) ? StepStatus.PASSED : StepStatus.FAILED, false, Optional.empty());
    }

    @Test
    void maxStableLoadsAre50And250And18() {
        assertThat(Conclusions.maxStableLoad(judged(new double[] {12, 25, 50, 75}, 3)).maxStableX()).hasValue(50);
        assertThat(Conclusions.maxStableLoad(judged(new double[] {12, 25, 50, 75, 100, 150, 200, 250, 300}, 8))
                .maxStableX()).hasValue(250);
        StableLoad oneVcpu = Conclusions.maxStableLoad(judged(new double[] {10, 15, 17, 18, 19}, 4));
        assertThat(oneVcpu.maxStableX()).hasValue(18);
        assertThat(oneVcpu.firstFailingX()).hasValue(19);
        assertThat(oneVcpu.firstFailing()).isPresent();
    }

    @Test
    void aPassAfterTheFirstFailDoesNotRaiseTheMaximum() {
        List<StepJudgement> v = new ArrayList<>(judged(new double[] {10, 20, 30}, 1));
        v.add(judgement(3, 40, Verdicts.judge(step(3, false), RULES)));
        assertThat(Conclusions.maxStableLoad(v).maxStableX()).hasValue(10);
    }

    @Test
    void aMissingMetricFailsTheRuleWithAReasonAndNoObservedValue() {
        List<RuleOutcome> o = Verdicts.judge(new StepObservations(0, List.of()), RULES);
        assertThat(Verdicts.passed(o)).isFalse();
        assertThat(o.getFirst().getReason()).contains("no observation");
        assertThat(o.getFirst().getObserved()).isNull();
    }

    @Test
    void aRuleOverAllSourcesFailsWhenAnySourceFails() {
        SloRule p95 = rule("latency", "latency.millis", "p95", Comparator.LE, 500);
        StepObservations s = new StepObservations(0, List.of(new Observation("latency.millis", "p95", "a", 120),
                new Observation("latency.millis", "p95", "b", 640)));
        RuleOutcome o = Verdicts.judge(s, List.of(p95)).getFirst();
        assertThat(o.getPassed()).isFalse();
        assertThat(o.getObserved()).isEqualTo(640);
        assertThat(o.getRule()).isEqualTo(p95);
    }

    @Test
    void aRuleOverOneSourceJudgesThatSourceOnly() {
        SloRule p95 = rule("latency", "latency.millis", "p95", Comparator.LE, 500);
        p95.setSource("a");
        StepObservations s = new StepObservations(0, List.of(new Observation("latency.millis", "p95", "a", 120),
                new Observation("latency.millis", "p95", "b", 640)));
        RuleOutcome o = Verdicts.judge(s, List.of(p95)).getFirst();
        assertThat(o.getPassed()).isTrue();
        assertThat(o.getObserved()).isEqualTo(120);
        assertThat(o.getReason()).as("a passed rule has no reason").isNull();
    }

    @Test
    void aFailingRuleSaysWhatWasObservedAsPeopleWriteIt() {
        SloRule p95 = rule("latency", "http_req_duration", "p95", Comparator.LE, 500);
        SloRule sessions = rule("sessions", "sessions.active", "min", Comparator.GE, 25);
        StepObservations s = new StepObservations(0, List.of(
                new Observation("http_req_duration", "p95", "client", 901.221889779516),
                new Observation("sessions.active", "min", "sfu", 1234567.0)));
        List<RuleOutcome> o = Verdicts.judge(s, List.of(p95, sessions));
        assertThat(o.getFirst().getReason()).isEqualTo("client: 901.2, not ≤ 500");
        assertThat(o.get(1).getPassed()).isTrue();
        StepObservations few = new StepObservations(1, List.of(new Observation("sessions.active", "min", "sfu",
                24.5)));
        assertThat(Verdicts.judge(few, List.of(sessions)).getFirst().getReason()).isEqualTo("sfu: 24.5, not ≥ 25");
    }

    @Test
    void eachComparatorHoldsAsItsSymbolReads() {
        assertThat(Verdicts.holds(Comparator.LT, 1, 2)).isTrue();
        assertThat(Verdicts.holds(Comparator.LT, 2, 2)).isFalse();
        assertThat(Verdicts.holds(Comparator.LE, 2, 2)).isTrue();
        assertThat(Verdicts.holds(Comparator.LE, 2.5, 2)).isFalse();
        assertThat(Verdicts.holds(Comparator.GT, 3, 2)).isTrue();
        assertThat(Verdicts.holds(Comparator.GT, 2, 2)).isFalse();
        assertThat(Verdicts.holds(Comparator.GE, 2, 2)).isTrue();
        assertThat(Verdicts.holds(Comparator.GE, 1.5, 2)).isFalse();
        assertThat(Verdicts.holds(Comparator.EQ, 0, 0)).isTrue();
        assertThat(Verdicts.holds(Comparator.EQ, 0.1 + 0.2, 0.3)).as("exact, 0.1 + 0.2 is 0.30000000000000004")
                .isFalse();
    }

    @Test
    void aStepPassesOnlyWhenEveryOutcomePasses() {
        List<RuleOutcome> passing = Verdicts.judge(step(0, false), RULES);
        List<RuleOutcome> oneFailing = Verdicts.judge(new StepObservations(0, List.of(
                new Observation("sessions.failed", "max", "whep-loadgen", 0),
                new Observation("sessions.dropped", "max", "whep-loadgen", 0),
                new Observation("frames.dropped", "rate", "node", 0.5))), RULES);
        assertThat(Verdicts.passed(passing)).isTrue();
        assertThat(oneFailing).extracting(RuleOutcome::getPassed).containsExactly(true, true, false);
        assertThat(Verdicts.passed(oneFailing)).isFalse();
        assertThat(Verdicts.passed(List.of())).as("no rule, nothing failed").isTrue();
    }

    @Test
    void aRuleIsAcceptedOnlyWithEveryPartAndAFiniteThreshold() {
        assertThat(Verdicts.accepted(RULES.getFirst())).isSameAs(RULES.getFirst());
        assertThatThrownBy(() -> Verdicts.accepted(rule("latency", "latency.millis", "p95", Comparator.LE,
                Double.NaN))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("SLO rule 'latency': threshold must be finite, got NaN");
        assertThatThrownBy(() -> Verdicts.accepted(rule("latency", "latency.millis", "p95", Comparator.LE,
                Double.POSITIVE_INFINITY))).hasMessage("SLO rule 'latency': threshold must be finite, got Infinity");
        assertThatThrownBy(() -> Verdicts.accepted(new SloRule("latency", null, "p95", Comparator.LE, 500.0, null)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("SLO rule 'latency': metric is missing");
        assertThatThrownBy(() -> Verdicts.accepted(new SloRule("latency", "latency.millis", "p95", null, 500.0,
                null))).hasMessage("SLO rule 'latency': comparator is missing");
        assertThatThrownBy(() -> Verdicts.accepted(new SloRule(null, "latency.millis", "p95", Comparator.LE, 500.0,
                null))).hasMessage("SLO rule on metric latency.millis: name is missing");
    }
}
