package dev.caplab.streams.run;

import static dev.caplab.streams.Events.gauge;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.AlertKind;
import dev.caplab.schema.event.Comparator;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.streams.Events;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.TopologySettings;
import dev.caplab.streams.verdict.DefaultRules;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run without SLO rules has steps that are not judged and no max stable load; default rules judge a run that
 * brings none, and the conclusion says so; inferred steps carry their bounds and warm-up on their verdicts.
 * Latency rises 100 ms per step from 100 ms; the rule p95 &lt;= 250 ms fails from the third step (300 ms) on.
 */
class NoRulesNoVerdictTest {

    @TempDir
    Path stateDir;

    @Test
    void withoutRulesNoStepIsJudgedAndTheRunHasNoMaxStableLoad() {
        List<RunConclusion> conclusions = run(TopologySettings.defaults(), "shop");
        RunConclusion last = conclusions.getLast();
        assertThat(last.getMaxStableX()).as("today every step passes: max stable load 40").isNull();
        assertThat(last.getFirstFailingX()).isNull();
        assertThat(last.getStepsJudged()).isZero();
        assertThat(last.getRulesFrom().toString()).isEqualTo("none");
        assertThat(verdicts).allSatisfy(v -> assertThat(v.getJudged()).isFalse());
    }

    @Test
    void defaultRulesJudgeARunThatBringsNoneAndTheConclusionSaysSo() {
        DefaultRules defaults = new DefaultRules(List.of(), Map.of("shop", List.of(Events.rule("p95<=250",
                "http_req_duration", "p95", Comparator.LE, 250))));
        RunConclusion last = run(TopologySettings.defaults().withDefaultRules(defaults), "shop").getLast();
        assertThat(last.getRulesFrom().toString()).isEqualTo("default");
        assertThat(last.getMaxStableX()).isEqualTo(20.0);
        assertThat(last.getFirstFailingX()).isEqualTo(30.0);
        assertThat(verdicts).allSatisfy(v -> assertThat(v.getJudged()).isTrue());
        assertThat(alerts).contains(AlertKind.STEP_FAILED);

        RunConclusion otherSystem = run(TopologySettings.defaults().withDefaultRules(defaults), "search").getLast();
        assertThat(otherSystem.getRulesFrom().toString()).as("the default was for shop only").isEqualTo("none");
        assertThat(otherSystem.getMaxStableX()).isNull();
    }

    @Test
    void inferredStepsCarryTheirBoundsAndWarmupOnTheirVerdicts() {
        run(TopologySettings.defaults(), "shop");
        StepVerdict second = verdicts.stream().filter(v -> v.getStepIndex() == 1).reduce((a, b) -> b).orElseThrow();
        assertThat(second.getWindowStart()).isEqualTo(Events.at(60));
        assertThat(second.getWindowEnd()).isEqualTo(Events.at(120));
        assertThat(second.getWarmupMicros()).as("TopologySettings' inferred warm-up, 10 s").isEqualTo(10_000_000L);
    }

    private List<StepVerdict> verdicts;
    private List<AlertKind> alerts;

    /** Four inferred steps of 60 s at 10, 20, 30, 40 users of system {@code sut}; latency 100 ms × step number. */
    private List<RunConclusion> run(TopologySettings settings, String sut) {
        String id = "run-" + sut;
        try (TopologyFixture t = new TopologyFixture(settings, stateDir.resolve(sut + settings.hashCode()))) {
            var started = Events.runStarted(id, "users", List.of(), 2);
            started.getSut().setName(sut);
            t.lifecycle(id, started);
            List<Sample> batch = new ArrayList<>();
            for (int s = 0; s < 240; s++) {
                int step = s / 60;
                batch.add(gauge("locust", "users", s, 10 * (step + 1)));
                batch.add(gauge("locust", "http_req_duration", s + 0.5, 100 * (step + 1)));
            }
            t.samples(id, batch);
            t.lifecycle(id, Events.runEnded(id, 240));
            t.advanceWallClock(Duration.ofSeconds(31));
            verdicts = t.verdicts.readValuesToList();
            alerts = t.alerts.readValuesToList().stream().map(a -> a.getKind()).toList();
            return t.conclusions.readValuesToList();
        }
    }
}
