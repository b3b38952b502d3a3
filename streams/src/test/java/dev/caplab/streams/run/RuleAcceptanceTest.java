package dev.caplab.streams.run;

import static dev.caplab.streams.run.RunLimitsTest.header;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caplab.schema.event.Comparator;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.schema.topic.DeadLetterHeaders;
import dev.caplab.streams.Events;
import dev.caplab.streams.SyntheticRun;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.verdict.DefaultRules;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SLO rules are checked where the topology accepts them: a run's declared start, the configured defaults. */
class RuleAcceptanceTest {

    @TempDir
    Path stateDir;

    @Test
    void aStartWithARuleThatCannotBeJudgedIsDeadLetteredNamingItAndTheRunGoesOnWithoutIt() {
        String run = "run-nan-rule";
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults(), stateDir)) {
            t.lifecycle(run, Events.runStarted(run, "users", List.of(Events.rule("p95 bound", "http_req_duration",
                    "p95", Comparator.LE, Double.NaN)), 2));
            TestRecord<String, byte[]> dead = t.deadLetter.readRecord();
            assertThat(header(dead, DeadLetterHeaders.REASON)).contains("processing failed")
                    .contains("SLO rule 'p95 bound': threshold must be finite, got NaN");
            assertThat(header(dead, DeadLetterHeaders.STAGE)).isEqualTo("run-processor");
            assertThat(t.alerts.readValue().getRunId()).isEqualTo(run);

            // The run's own start, with rules that can be judged, comes after: every step is judged by them alone.
            VerdictAndFitTest.pipe(t, run);
            List<StepVerdict> verdicts = t.verdicts.readValuesToList();
            assertThat(verdicts).hasSize(SyntheticRun.STEPS).allSatisfy(v -> assertThat(v.getOutcomes())
                    .noneMatch(o -> o.getRule().getName().equals("p95 bound")));
            assertThat(verdicts).allSatisfy(v -> assertThat(v.getPassed()).as("step " + v.getStepIndex())
                    .isEqualTo(v.getStepIndex() < SyntheticRun.FIRST_FAILING_STEP));
            assertThat(t.deadLetter.isEmpty()).isTrue();
        }
    }

    @Test
    void defaultRulesThatCannotBeJudgedAreRefusedNamingTheRule() {
        assertThatThrownBy(() -> new DefaultRules(List.of(Events.rule("errors", "http_req_failed", "rate",
                Comparator.LT, Double.POSITIVE_INFINITY)), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("SLO rule 'errors': threshold must be finite, got Infinity");
        assertThatThrownBy(() -> new DefaultRules(List.of(), Map.of("shop", List.of(Events.rule("latency",
                "http_req_duration", "p95", Comparator.LE, Double.NaN)))))
                .hasMessage("SLO rule 'latency': threshold must be finite, got NaN");
    }
}
