package dev.caplab.query.steps;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.SloRule;
import dev.caplab.schema.event.RuleOutcome;
import dev.caplab.schema.event.Comparator;
import dev.caplab.store.row.RunStep;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A step as the API serves it: the run's step flattened, with the rules it broke in words and units. */
class StepViewTest {

    private static final Instant T0 = Instant.parse("2026-11-02T09:00:00Z");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void aFailedStepNamesTheRulesItBrokeWithTheObservedValueInItsUnitAndKeepsEveryField() {
        SloRule p95 = SloRule.newBuilder().setName("p95-latency").setMetric("http_req_duration").setStatistic("p95")
                .setComparator(Comparator.LE).setThreshold(500.0).build();
        SloRule errors = SloRule.newBuilder().setName("errors").setMetric("http_req_failed").setStatistic("mean")
                .setComparator(Comparator.LE).setThreshold(0.01).build();
        RunStep step = new RunStep("r", 2, Map.of("vus", 30.0), 30.0, T0, T0.plusSeconds(60), 5_000, false, false,
                null, "cpu.cores@host", List.of(RuleOutcome.newBuilder().setRule(p95).setObserved(812.0)
                        .setPassed(false).build(), RuleOutcome.newBuilder().setRule(errors).setObserved(0.0)
                        .setPassed(true).build()), 3);

        JsonNode json = JSON.valueToTree(new StepView(step));

        assertThat(json.get("failedRules").asString()).isEqualTo("p95-latency (observed 812 ms)");
        assertThat(json.propertyNames()).containsExactlyInAnyOrder("runId", "stepIndex", "load", "x", "startedAt",
                "endedAt", "warmupMillis", "passed", "contaminated", "contaminationReason", "bottleneck",
                "failedRules", "lateSamples", "amended", "judged", "status");
        assertThat(json.get("status").asString()).isEqualTo("fail");
        assertThat(json.get("amended").asBoolean()).isTrue();
        assertThat(json.get("lateSamples").asLong()).isEqualTo(3);
    }

    @Test
    void aStepWithoutVerdictHasNoFailedRulesAndAPassedOneNone() {
        RunStep pending = new RunStep("r", 0, Map.of("vus", 10.0), null, T0, null, 0, null, false, null, null, null,
                0);
        RunStep passed = new RunStep("r", 1, Map.of("vus", 20.0), 20.0, T0, T0.plusSeconds(60), 0, true, false, null,
                null, List.of(), 0);
        assertThat(new StepView(pending).failedRules()).isNull();
        assertThat(new StepView(passed).failedRules()).isEmpty();
    }

    @Test
    void theStatusSaysWhatTheStepSaysAboutTheSystemAContaminatedOneNeitherPassNorFail() {
        RunStep contaminatedPass = new RunStep("r", 0, Map.of("vus", 10.0), 10.0, T0, T0.plusSeconds(60), 0, true,
                true, "backup job", null, List.of(), 0);
        RunStep unjudged = new RunStep("r", 1, Map.of("vus", 20.0), 20.0, T0, T0.plusSeconds(60), 0, null, false,
                null, null, List.of(), 0, false, false);
        RunStep running = new RunStep("r", 2, Map.of("vus", 30.0), null, T0, null, 0, null, false, null, null, null,
                0);
        RunStep passed = new RunStep("r", 3, Map.of("vus", 40.0), 40.0, T0, T0.plusSeconds(60), 0, true, false, null,
                null, List.of(), 0);

        assertThat(List.of(contaminatedPass, unjudged, running, passed).stream()
                .map(s -> JSON.valueToTree(new StepView(s)).get("status").asString()))
                .containsExactly("contaminated", "not judged", "pending", "pass");
    }
}
