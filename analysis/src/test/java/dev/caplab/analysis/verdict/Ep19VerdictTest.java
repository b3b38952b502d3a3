package dev.caplab.analysis.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.analysis.conclusion.Conclusions;
import dev.caplab.analysis.conclusion.StableLoad;
import dev.caplab.analysis.conclusion.StepJudgement;
import dev.caplab.analysis.conclusion.StepStatus;
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
            SloRule.of("all connected", "sessions.failed", "max", SloComparator.EQ, 0),
            SloRule.of("no disconnects", "sessions.dropped", "max", SloComparator.EQ, 0),
            SloRule.of("no dropped frames", "frames.dropped", "rate", SloComparator.LE, 0));

    private static List<StepObservations> steps(double[] loads, int firstFailing) {
        List<StepObservations> out = new ArrayList<>();
        for (int i = 0; i < loads.length; i++) {
            boolean bad = i >= firstFailing;
            out.add(new StepObservations(i, loads[i], List.of(
                    new Observation("sessions.failed", "max", "whep-loadgen", bad ? 7 : 0),
                    new Observation("sessions.dropped", "max", "whep-loadgen", 0),
                    new Observation("frames.dropped", "rate", "node", bad ? 12.5 : 0))));
        }
        return out;
    }

    /** The verdicts as the conclusion reads them: every step judged, none contaminated. */
    private static StableLoad stable(List<StepVerdict> verdicts) {
        return Conclusions.maxStableLoad(verdicts.stream().map(v -> new StepJudgement(v.stepIndex(),
                OptionalDouble.of(v.load()), v.passed() ? StepStatus.PASSED : StepStatus.FAILED,
                false, Optional.empty())).toList());
    }

    @Test
    void maxStableLoadsAre50And250And18() {
        assertThat(stable(Verdicts.evaluateAll(steps(new double[] {12, 25, 50, 75}, 3), RULES)).maxStableX())
                .hasValue(50);
        assertThat(stable(Verdicts.evaluateAll(steps(new double[] {12, 25, 50, 75, 100, 150, 200, 250, 300}, 8),
                RULES)).maxStableX()).hasValue(250);
        StableLoad oneVcpu = stable(Verdicts.evaluateAll(steps(new double[] {10, 15, 17, 18, 19}, 4), RULES));
        assertThat(oneVcpu.maxStableX()).hasValue(18);
        assertThat(oneVcpu.firstFailingX()).hasValue(19);
        assertThat(oneVcpu.firstFailing()).isPresent();
    }

    @Test
    void aPassAfterTheFirstFailDoesNotRaiseTheMaximum() {
        List<StepVerdict> v = new ArrayList<>(Verdicts.evaluateAll(steps(new double[] {10, 20, 30}, 1), RULES));
        StepObservations passing = steps(new double[] {40}, 9).getFirst();
        v.add(Verdicts.evaluate(new StepObservations(3, 40, passing.observations()), RULES));
        assertThat(stable(v).maxStableX()).hasValue(10);
    }

    @Test
    void aMissingMetricFailsTheRuleWithAReason() {
        StepVerdict v = Verdicts.evaluate(new StepObservations(0, 12, List.of()), RULES);
        assertThat(v.passed()).isFalse();
        assertThat(v.outcomes().getFirst().reason()).contains("no observation");
    }

    @Test
    void aRuleOverAllSourcesFailsWhenAnySourceFails() {
        SloRule p95 = SloRule.of("latency", "latency.millis", "p95", SloComparator.LE, 500);
        StepObservations s = new StepObservations(0, 100, List.of(new Observation("latency.millis", "p95", "a", 120),
                new Observation("latency.millis", "p95", "b", 640)));
        RuleOutcome o = Verdicts.evaluate(s, List.of(p95)).outcomes().getFirst();
        assertThat(o.passed()).isFalse();
        assertThat(o.observed()).hasValue(640);
    }

    @Test
    void aFailingRuleSaysWhatWasObservedAsPeopleWriteIt() {
        SloRule p95 = SloRule.of("latency", "http_req_duration", "p95", SloComparator.LE, 500);
        SloRule sessions = SloRule.of("sessions", "sessions.active", "min", SloComparator.GE, 25);
        StepObservations s = new StepObservations(0, 100, List.of(
                new Observation("http_req_duration", "p95", "client", 901.221889779516),
                new Observation("sessions.active", "min", "sfu", 1234567.0)));
        List<RuleOutcome> o = Verdicts.evaluate(s, List.of(p95, sessions)).outcomes();
        assertThat(o.getFirst().reason()).isEqualTo("client: 901.2, not ≤ 500");
        assertThat(o.get(1).passed()).isTrue();
        StepObservations few = new StepObservations(1, 100, List.of(new Observation("sessions.active", "min", "sfu",
                24.5)));
        assertThat(Verdicts.evaluate(few, List.of(sessions)).outcomes().getFirst().reason())
                .isEqualTo("sfu: 24.5, not ≥ 25");
    }
}
