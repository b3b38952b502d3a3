package dev.caplab.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import java.time.Instant;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/** The generator as a whole: deterministic, every run well-formed and time-ordered, every event encodable. */
class DemoRunsTest {

    private final List<DemoRun> runs = TestRuns.ALL;

    @Test
    void isAPureFunctionOfTheSeed() {
        assertThat(DemoRuns.all()).isEqualTo(runs);
        assertThat(DemoRuns.all(7)).isNotEqualTo(runs);
        assertThat(DemoRuns.all(7)).isEqualTo(DemoRuns.all(7));
    }

    @Test
    void holdsEveryReportsRunsUnderTheirIds() throws java.io.IOException {
        // the ids the README's run table promises, in its order: truth from outside the generator
        List<String> documented = new java.util.ArrayList<>();
        for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("README.md"))) {
            if (line.startsWith("| `demo-")) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("`(demo-[^`]+)`")
                        .matcher(line.substring(0, line.indexOf('|', 1)));
                while (m.find()) {
                    documented.add(m.group(1));
                }
            }
        }
        assertThat(documented).hasSize(7);
        assertThat(runs).extracting(DemoRun::runId).containsExactlyElementsOf(documented).doesNotHaveDuplicates();
        assertThat(runs).allSatisfy(r -> assertThat(r.runStarted().getLabels())
                .containsEntry(DemoLabels.LABEL_DEMO, "true").containsKey(DemoLabels.LABEL_SOURCE_REPORT));
        // a stored raw stream, not an aggregate: tens of thousands of samples
        assertThat(runs.stream().mapToInt(r -> r.samples().size()).sum()).isBetween(10_000, 200_000);
    }

    @Test
    void samplesSitBetweenTheLifecycleEventsThatFrameThemAndNoBatchIsOversized() {
        for (DemoRun run : runs) {
            long lastLifecycle = Long.MIN_VALUE;
            boolean lastClosed = false;
            long newestSample = Long.MIN_VALUE;
            for (SpecificRecord event : run.events()) {
                if (event instanceof SampleBatch batch) {
                    assertThat(batch.getRunId()).isEqualTo(run.runId());
                    assertThat(batch.getSamples()).isNotEmpty().hasSizeLessThanOrEqualTo(1_000);
                    for (Sample s : batch.getSamples()) {
                        long t = micros(s.getTimestamp());
                        assertThat(lastClosed ? t > lastLifecycle : t >= lastLifecycle)
                                .as("%s sample %s after lifecycle at %d", run.runId(), s, lastLifecycle).isTrue();
                        newestSample = Math.max(newestSample, t);
                    }
                } else {
                    long t = micros(timeOf(event));
                    boolean opens = event instanceof StepStarted || event instanceof RunStarted;
                    assertThat(t).as("%s %s", run.runId(), event).isGreaterThanOrEqualTo(lastLifecycle);
                    assertThat(opens ? t > newestSample : t >= newestSample)
                            .as("%s %s after a sample at %d", run.runId(), event, newestSample).isTrue();
                    lastLifecycle = t;
                    lastClosed = !opens;
                }
            }
        }
    }

    @Test
    void everyEventSurvivesTheTopicSerdes() {
        for (DemoRun run : runs) {
            for (SpecificRecord event : run.events()) {
                if (event instanceof SampleBatch batch) {
                    byte[] bytes = EventSerdes.sampleBatch().serialize(TopicCatalog.SAMPLES, batch);
                    assertThat(EventSerdes.sampleBatch().deserialize(TopicCatalog.SAMPLES, bytes)).isEqualTo(batch);
                } else {
                    byte[] bytes = EventSerdes.lifecycle().serialize(TopicCatalog.RUNS, event);
                    assertThat(EventSerdes.lifecycle().deserialize(TopicCatalog.RUNS, bytes)).isEqualTo(event);
                }
            }
        }
    }

    private static Instant timeOf(SpecificRecord event) {
        return switch (event) {
            case RunStarted e -> e.getStartedAt();
            case StepStarted e -> e.getStartedAt();
            case StepEnded e -> e.getEndedAt();
            case Annotation e -> e.getAt();
            case RunEnded e -> e.getEndedAt();
            default -> throw new AssertionError("not a lifecycle event: " + event);
        };
    }

    private static long micros(Instant t) {
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
    }
}
