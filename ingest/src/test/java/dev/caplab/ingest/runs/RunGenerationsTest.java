package dev.caplab.ingest.runs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.ingest.publish.RoutedSamples;
import dev.caplab.schema.event.RunDeleted;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunOrigin;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.RunStatus;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleKind;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Where each sample of a write goes: a run nobody started that ended idle takes later samples into its next
 * generation ({@code k6.2}, then {@code k6.3}), keeps those inside its span as late data; a declared run never splits;
 * a deleted run takes none.
 */
class RunGenerationsTest {

    private static final Instant T0 = Instant.parse("2026-12-06T17:00:00Z");

    static {
        dev.caplab.schema.serde.AvroTrust.install();
    }

    private final RunDirectory directory = new RunDirectory();
    private final RunGenerations generations = new RunGenerations(directory);

    {
        directory.markLoaded(); // as the watcher does once it read the topic: routing never waits here
    }

    @Test
    void anUnknownRunTakesItsSamplesAsTheyCame() {
        RunGenerations.Routing r = generations.route(write("k6", 0, 10), Set.of());
        assertThat(r.routed().samplesByRun()).containsOnlyKeys("k6");
        assertThat(r.landings()).singleElement().satisfies(l -> {
            assertThat(l.kind()).isEqualTo(Landing.Kind.RUNNING);
            assertThat(l.samples()).isEqualTo(10);
            assertThat(l.warning()).isNull();
        });
    }

    @Test
    void samplesAfterAnIdleEndBeginTheNextRunAndThoseInsideItsSpanAmendIt() {
        inferred("k6", 0, 99);
        RoutedSamples mixed = new RoutedSamples(Map.of("k6", List.of(sample(50), sample(99), sample(300),
                sample(301))), List.of());
        RunGenerations.Routing r = generations.route(mixed, Set.of());
        assertThat(r.routed().samplesByRun().get("k6")).extracting(RunGenerationsTest::second).containsExactly(50L, 99L);
        assertThat(r.routed().samplesByRun().get("k6.2")).extracting(RunGenerationsTest::second)
                .containsExactly(300L, 301L);
        assertThat(r.landings()).extracting(Landing::runId, Landing::kind, Landing::samples).containsExactly(
                org.assertj.core.groups.Tuple.tuple("k6", Landing.Kind.LATE, 2),
                org.assertj.core.groups.Tuple.tuple("k6.2", Landing.Kind.NEW_RUN, 2));
        assertThat(r.landings().get(1).warning()).contains("k6.2", T0.plusSeconds(99).toString());

        // until streams publishes k6.2's start, every write after the end still goes to k6.2, never k6.3
        assertThat(generations.route(write("k6", 310, 5), Set.of()).routed().samplesByRun()).containsOnlyKeys("k6.2");
        inferred("k6.2", 300, 400);
        assertThat(generations.route(write("k6", 350, 5), Set.of()).routed().samplesByRun()).containsOnlyKeys("k6.2");
        assertThat(generations.route(write("k6", 500, 5), Set.of()).routed().samplesByRun()).containsOnlyKeys("k6.3");
        assertThat(generations.route(write("k6", 200, 1), Set.of()).landings()).as("between two tests: the next one")
                .extracting(Landing::runId, Landing::kind)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("k6.2", Landing.Kind.LATE));
    }

    @Test
    void aDeclaredRunIsNeverSplitAndSamplesAfterItsEndAreSaidSo() {
        directory.apply(RunStarted.newBuilder().setRunId("ci-7").setStartedAt(T0)
                .setSut(dev.caplab.schema.event.SystemUnderTest.newBuilder().setName("api").build())
                .setEnvironment(dev.caplab.schema.event.Environment.newBuilder().setProvider("aws").build())
                .setTool("k6").setOrigin(RunOrigin.DECLARED).build());
        directory.apply(end("ci-7", 100));
        RunGenerations.Routing r = generations.route(write("ci-7", 200, 3), Set.of());
        assertThat(r.routed().samplesByRun()).containsOnlyKeys("ci-7");
        assertThat(r.landings()).singleElement().satisfies(l -> {
            assertThat(l.kind()).isEqualTo(Landing.Kind.AFTER_END);
            assertThat(l.warning()).contains("after its end", "new run id");
        });
    }

    @Test
    void aDeletedRunTakesNoSampleWhateverItsTimeAndTheNextRunIsNamedWithTheDeletion() {
        directory.apply(RunStarted.newBuilder().setRunId("ci-8").setStartedAt(T0)
                .setSut(dev.caplab.schema.event.SystemUnderTest.newBuilder().setName("api").build())
                .setEnvironment(dev.caplab.schema.event.Environment.newBuilder().setProvider("aws").build())
                .setTool("k6").setOrigin(RunOrigin.DECLARED).build());
        Instant deletedAt = T0.plusSeconds(60);
        directory.apply(new RunDeleted("ci-8", deletedAt, null));
        // still running when deleted, and a sample inside its span: neither goes to the deleted run
        RunGenerations.Routing r = generations.route(write("ci-8", 10, 3), Set.of());
        assertThat(r.routed().samplesByRun()).containsOnlyKeys("ci-8.2");
        assertThat(r.landings()).singleElement().satisfies(l -> {
            assertThat(l.kind()).isEqualTo(Landing.Kind.AFTER_DELETION);
            assertThat(l.kind().text()).isEqualTo("new-run");
            assertThat(l.warning()).contains("ci-8 was deleted at " + deletedAt, "3 sample(s)", "new run, ci-8.2");
        });
        // a second deletion (another client, a replay) does not move the time of the first
        directory.apply(new RunDeleted("ci-8", T0.plusSeconds(90), "again"));
        assertThat(directory.facts("ci-8").orElseThrow().deletedAt()).isEqualTo(deletedAt);
        // once ci-8.2 is known and running, it takes them
        inferredStart("ci-8.2", 100);
        assertThat(generations.route(write("ci-8", 120, 2), Set.of()).routed().samplesByRun())
                .containsOnlyKeys("ci-8.2");
    }

    @Test
    void aRunStartedInTheSameRequestKeepsItsSamples() {
        inferred("k6", 0, 99);
        assertThat(generations.route(write("k6", 300, 2), Set.of("k6")).routed().samplesByRun()).containsOnlyKeys("k6");
    }

    private void inferred(String run, int fromSecond, int endSecond) {
        inferredStart(run, fromSecond);
        directory.apply(end(run, endSecond));
    }

    private void inferredStart(String run, int fromSecond) {
        directory.apply(RunStarted.newBuilder().setRunId(run).setStartedAt(T0.plusSeconds(fromSecond))
                .setSut(dev.caplab.schema.event.SystemUnderTest.newBuilder().setName("unknown").build())
                .setEnvironment(dev.caplab.schema.event.Environment.newBuilder().setProvider("unknown").build())
                .setTool("influx-line").setOrigin(RunOrigin.INFERRED).build());
    }

    private static RunEnded end(String run, int second) {
        return RunEnded.newBuilder().setRunId(run).setEndedAt(T0.plusSeconds(second)).setStatus(RunStatus.COMPLETED)
                .build();
    }

    private static RoutedSamples write(String run, int fromSecond, int count) {
        RoutedSamples.Builder b = new RoutedSamples.Builder();
        for (int i = 0; i < count; i++) {
            b.add(run, sample(fromSecond + i));
        }
        return b.build();
    }

    private static Sample sample(int second) {
        return Sample.newBuilder().setSource("k6").setMetric("vus").setKind(SampleKind.GAUGE)
                .setTimestamp(T0.plusSeconds(second)).setValue(10).setLabels(Map.of()).build();
    }

    private static long second(Sample s) {
        return s.getTimestamp().getEpochSecond() - T0.getEpochSecond();
    }
}
