package dev.caplab.streams.run;

import static dev.caplab.streams.Events.gauge;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunWarning;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.streams.Events;
import dev.caplab.streams.TopologyFixture;
import dev.caplab.streams.TopologySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conclusion says what a sender must know: a run whose load level came under an unrecognised name has no step and
 * says so, naming the names it knows and {@code loadExpression}; samples later than the run's end are stored in no
 * step and the conclusion says so, whichever came first.
 */
class RunWarningsTest {

    private static final Duration IDLE = Duration.ofSeconds(5);

    @TempDir
    Path stateDir;

    @Test
    void aTypoInTheLoadMetricGivesARunWithoutStepsAndAConclusionThatSaysWhy() {
        String run = "run-typo";
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults().withRunIdleEnd(IDLE), stateDir)) {
            t.samples(run, levels("vu", 0, 100)); // k6 sends "vus"; "vu" is no load metric
            t.advanceWallClock(IDLE.plusSeconds(1));
            t.advanceWallClock(TopologySettings.defaults().grace().plusSeconds(1));
            assertThat(t.verdicts.readValuesToList()).as("no step to judge").isEmpty();
            RunConclusion c = newest(t);
            assertThat(c.getRunClosed()).isTrue();
            assertThat(c.getStepsJudged()).isZero();
            assertThat(c.getWarnings()).extracting(w -> w.getKind().toString()).containsExactly("NO_LOAD_METRIC");
            String message = c.getWarnings().getFirst().getMessage().toString();
            assertThat(message).contains("vus", "locust.users", "users", "loadExpression", "--load-expression");
        }
    }

    @Test
    void aRunWithItsLoadMetricHasNoWarning() {
        String run = "run-vus";
        try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults().withRunIdleEnd(IDLE), stateDir)) {
            t.samples(run, levels("vus", 0, 100));
            t.advanceWallClock(IDLE.plusSeconds(1));
            t.advanceWallClock(TopologySettings.defaults().grace().plusSeconds(1));
            RunConclusion c = newest(t);
            assertThat(c.getRunClosed()).isTrue();
            assertThat(c.getStepsJudged() + c.getStepsSkipped()).isEqualTo(2);
            assertThat(c.getWarnings()).isEmpty();
        }
    }

    @Test
    void samplesAfterTheEndAreWarnedOfWhetherTheEndCameFirstOrLast() {
        for (boolean endFirst : new boolean[] {true, false}) {
            String run = "run-after-end-" + endFirst;
            try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults(), stateDir.resolve(run))) {
                t.lifecycle(run, Events.runStarted(run, "vus", List.of(), 2));
                if (endFirst) {
                    t.lifecycle(run, Events.runEnded(run, 100));
                }
                t.samples(run, levels("vus", 0, 100));
                t.samples(run, levels("vus", 130, 140)); // 30 s after the end: a second test under the same id
                if (!endFirst) {
                    t.lifecycle(run, Events.runEnded(run, 100));
                }
                t.advanceWallClock(TopologySettings.defaults().grace().plusSeconds(2));
                RunConclusion c = newest(t);
                assertThat(c.getWarnings()).as("end first: " + endFirst).extracting(RunWarning::getKind)
                        .extracting(CharSequence::toString).containsExactly("SAMPLES_AFTER_END");
                assertThat(c.getWarnings().getFirst().getMessage().toString())
                        .contains(Events.at(100).toString(), "new run id");
            }
        }
    }

    @Test
    void aHeaviestLevelCutShortIsWarnedOfAndARampDownIsNot() {
        int shortSeconds = (int) TopologySettings.defaults().minInferredStep().toSeconds() - 5;
        for (double tail : new double[] {40, 5}) {
            String run = "run-tail-" + (int) tail;
            try (TopologyFixture t = new TopologyFixture(TopologySettings.defaults().withRunIdleEnd(IDLE),
                    stateDir.resolve(run))) {
                t.samples(run, levels("vus", 0, 120));
                List<Sample> last = new ArrayList<>();
                for (int s = 120; s < 120 + shortSeconds; s++) {
                    last.add(Events.sample("k6", "vus", SampleKind.GAUGE, s, tail, Map.of()));
                    last.add(gauge("sut", "cpu.cores", s, tail / 10));
                }
                t.samples(run, last);
                t.advanceWallClock(IDLE.plusSeconds(1));
                t.advanceWallClock(TopologySettings.defaults().grace().plusSeconds(1));
                RunConclusion c = newest(t);
                assertThat(c.getStepsJudged() + c.getStepsSkipped()).as("the 10 and 20 plateaus").isEqualTo(2);
                if (tail > 20) {
                    assertThat(c.getWarnings()).extracting(w -> w.getKind().toString())
                            .containsExactly("SHORT_LAST_LEVEL");
                    assertThat(c.getWarnings().getFirst().getMessage().toString())
                            .contains("vus=40", Events.at(120).toString(), "for " + shortSeconds + " s");
                } else {
                    assertThat(c.getWarnings()).as("a lower level after the last step is a ramp down").isEmpty();
                }
            }
        }
    }

    private static RunConclusion newest(TopologyFixture t) {
        return t.conclusions.readValuesToList().stream().max(Comparator.comparingLong(RunConclusion::getVersion))
                .orElseThrow(() -> new AssertionError("no conclusion"));
    }

    /** {@code metric} 10 for [0, 60) s and 20 from 60 s, with a CPU gauge. */
    private static List<Sample> levels(String metric, int fromSecond, int toSecond) {
        List<Sample> batch = new ArrayList<>();
        for (int s = fromSecond; s < toSecond; s++) {
            double level = s < 60 ? 10 : 20;
            batch.add(Events.sample("k6", metric, SampleKind.GAUGE, s, level, Map.of()));
            batch.add(gauge("sut", "cpu.cores", s, level / 10));
        }
        return batch;
    }
}
