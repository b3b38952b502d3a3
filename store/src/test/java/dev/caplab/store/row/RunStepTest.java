package dev.caplab.store.row;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.StepVerdict;
import dev.caplab.schema.serde.AvroTrust;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Which steps a run has, from its stored steps and verdicts. */
class RunStepTest {

    private static final Instant T0 = Instant.parse("2026-11-02T09:00:00Z");

    /** As every serde and the store's codecs do: alone in a JVM, the builder's default outcomes are refused. */
    @BeforeAll
    static void trustCaplabsEvents() {
        AvroTrust.install();
    }

    private static StepVerdict verdict(String run, int index, double users) {
        return StepVerdict.newBuilder().setRunId(run).setStepIndex(index).setLoad(Map.of("vus", users)).setX(users)
                .setPassed(true).setVersion(1).build();
    }

    @Test
    void aRunWithDeclaredStepsShowsThoseNotTheMoreNumerousOnesInferredBeforeTheDeclarationCame() {
        // Eight steps were inferred from k6's vus (verdicts 0-7); the controller then declared four.
        List<StepVerdict> verdicts = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            verdicts.add(verdict("declared-late", i, 10 * (i + 1)));
        }
        List<StepRow> declared = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Instant start = T0.plusSeconds(60L * i);
            declared.add(new StepRow("declared-late", i, Map.of("users", 20.0 * (i + 1)), start, 5_000_000L,
                    start.plusSeconds(60), 1));
        }
        // A run nobody declared steps for: its inferred steps are its steps.
        verdicts.add(verdict("inferred", 0, 10));
        verdicts.add(verdict("inferred", 1, 20));
        List<StepVerdict> late = verdicts.stream().filter(v -> v.getRunId().equals("declared-late")).toList();
        List<StepVerdict> inferred = verdicts.stream().filter(v -> v.getRunId().equals("inferred")).toList();

        assertThat(RunStep.of("declared-late", declared, late)).extracting(RunStep::stepIndex)
                .containsExactly(0, 1, 2, 3);
        assertThat(RunStep.of("declared-late", declared, late).get(3).startedAt()).isEqualTo(T0.plusSeconds(180));
        assertThat(RunStep.of("inferred", List.of(), inferred)).extracting(RunStep::stepIndex)
                .containsExactly(0, 1);
    }

    @Test
    void anInferredStepRunsOverItsVerdictsWindowAndAStepWithoutVerdictIsPending() {
        Instant from = T0.plusSeconds(120);
        StepVerdict inferred = StepVerdict.newBuilder().setRunId("r").setStepIndex(0).setLoad(Map.of("vus", 10.0))
                .setX(10.0).setPassed(false).setVersion(3).setLateCount(4).setWindowStart(from)
                .setWindowEnd(from.plusSeconds(90)).setWarmupMicros(7_000_000L).build();
        RunStep step = RunStep.of("r", List.of(), List.of(inferred)).getFirst();
        assertThat(step.startedAt()).isEqualTo(from);
        assertThat(step.endedAt()).isEqualTo(from.plusSeconds(90));
        assertThat(step.warmupMillis()).isEqualTo(7_000);
        assertThat(step.passed()).isFalse();
        assertThat(step.lateSamples()).isEqualTo(4);
        assertThat(step.amended()).isTrue();

        RunStep pending = RunStep.of("r", List.of(new StepRow("r", 0, Map.of("vus", 10.0), T0, 2_000_000L, null, 1)),
                List.of()).getFirst();
        assertThat(pending.passed()).isNull();
        assertThat(pending.judged()).isTrue();
        assertThat(pending.outcomes()).as("no verdict, no outcomes").isNull();
        assertThat(pending.warmupMillis()).isEqualTo(2_000);
        assertThat(pending.amended()).isFalse();
    }

    @Test
    void aStepNoRuleJudgedSaysNothingAboutPassing() {
        StepVerdict unjudged = StepVerdict.newBuilder().setRunId("r").setStepIndex(0).setLoad(Map.of("vus", 10.0))
                .setX(10.0).setPassed(true).setVersion(3).setJudged(false).setWindowStart(T0)
                .setWindowEnd(T0.plusSeconds(60)).build();
        RunStep step = RunStep.of("r", List.of(), List.of(unjudged)).getFirst();
        assertThat(step.judged()).isFalse();
        assertThat(step.passed()).isNull();
        assertThat(step.warmupMillis()).isZero();
    }

    @Test
    void theRunIsTestedToTheLargestXOfItsSteps() {
        List<RunStep> steps = RunStep.of("r", List.of(), List.of(verdict("r", 0, 10), verdict("r", 1, 30),
                verdict("r", 2, 20)));
        assertThat(RunStep.testedToX(steps)).isEqualTo(30.0);
        assertThat(RunStep.testedToX(List.of())).isNull();
    }

    @Test
    void aStepsLoadDimensionsAndARunsLabelsReadInKeyOrderWhateverOrderTheyCameIn() {
        Map<String, Double> load = new java.util.LinkedHashMap<>();
        for (String dimension : List.of("viewers", "subscribers", "rooms", "publishers", "participants", "cameras")) {
            load.put(dimension, 1.0);
        }
        StepRow step = new StepRow("r", 0, load, T0, 0, T0.plusSeconds(60), 1);

        List<String> expected = List.of("cameras", "participants", "publishers", "rooms", "subscribers", "viewers");
        assertThat(List.copyOf(step.load().keySet())).containsExactlyElementsOf(expected);
        assertThat(List.copyOf(RunStep.of("r", List.of(step), List.of()).getFirst().load().keySet()))
                .containsExactlyElementsOf(expected);
    }
}
