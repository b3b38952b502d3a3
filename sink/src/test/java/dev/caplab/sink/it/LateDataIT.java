package dev.caplab.sink.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.BottleneckRule;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.RunConclusionRepository;
import dev.caplab.store.access.RunLatenessRepository;
import dev.caplab.store.access.StepAggregateRepository;
import dev.caplab.store.access.StepVerdictRepository;
import dev.caplab.schema.event.RunLateness;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.streams.StreamsRunner;
import dev.caplab.streams.SyntheticRun;
import dev.caplab.sink.ClickHouseSink;
import dev.caplab.sink.SinkSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Late data on the whole tier: the same synthetic run sent lifecycle-first, lifecycle-last and with the host
 * sampler's batches after every step closed on the load tool's event time ends up as the same rows in ClickHouse
 * (FINAL: the newest version), run conclusion included, except version, late count and fit time; the late run says
 * how many samples came late, and its stored conclusion is the amended one.
 * On the raw-buffer design the host-last run had no host aggregates and no fits.
 */
class LateDataIT {

    @RegisterExtension
    static final ItEnvironment ENV = new ItEnvironment();

    @Test
    void theSameRunInThreeOrdersIsStoredAlikeAndItsLatenessCounted() throws Exception {
        var aggregates = new StepAggregateRepository(ENV.db().dataSource());
        var verdicts = new StepVerdictRepository(ENV.db().dataSource());
        var fits = new CapacityFitRepository(ENV.db().dataSource());
        var conclusions = new RunConclusionRepository(ENV.db().dataSource());
        try (StreamsRunner streams = StreamsRunner.start(PipelineIT.streamsSettings(ENV.bootstrap(),
                ENV.dir().resolve("state")));
                ClickHouseSink sink = ClickHouseSink.start(SinkSettings.of(ENV.bootstrap()),
                        ENV.db().dataSource())) {
            streams.awaitRunning(Duration.ofSeconds(60));
            PipelineIT.produce(ENV.bootstrap(), "order-first");
            PipelineIT.produce(ENV.bootstrap(), "order-lifecycle-last", SyntheticRun.lifecycleLast("order-lifecycle-last"));
            PipelineIT.produce(ENV.bootstrap(), "order-host-last", SyntheticRun.hostLast("order-host-last"));
            ItEnvironment.await(Duration.ofSeconds(180), () -> projection(aggregates, verdicts, fits, conclusions,
                            "order-first").isComplete()
                            && projection(aggregates, verdicts, fits, conclusions, "order-lifecycle-last")
                            .equals(projection(aggregates, verdicts, fits, conclusions, "order-first"))
                            && projection(aggregates, verdicts, fits, conclusions, "order-host-last")
                            .equals(projection(aggregates, verdicts, fits, conclusions, "order-first")),
                    () -> ": streams " + streams.state() + ", sink failure " + sink.failure());
            assertThat(sink.failure()).isNull();
        }
        List<StepAggregate> hostLast = aggregates.ofRun("order-host-last");
        // Steps 0..6 closed on the load tool's event time before any host sample came (one samples partition, in
        // order); the last closes on the wall clock, maybe after them.
        assertThat(hostLast).filteredOn(a -> a.getSource().equals("host") && a.getStepIndex() >= 0
                        && a.getStepIndex() < SyntheticRun.STEPS - 1)
                .as("host aggregates amended by late samples").hasSize(2 * (SyntheticRun.STEPS - 1))
                .allMatch(a -> a.getLateCount() > 0 && a.getVersion() > 1);
        List<RunLateness> lateness = new RunLatenessRepository(ENV.db().dataSource()).ofRun("order-host-last");
        assertThat(lateness).singleElement().satisfies(l -> {
            assertThat(l.getLateSamples()).isPositive();
            assertThat(l.getBeyondLatenessSamples()).isZero();
        });
        assertThat(aggregates.ofRun("order-first")).allMatch(a -> a.getLateCount() == 0);

        // The conclusion stored for the host-last run was written when its steps closed without any host sample
        // (no cpu fit, no bottleneck) and amended by the late host samples: a newer version than the in-order run's,
        // and the same content. Steps 0-4 (2..10 users) pass and step 5 (12 users) fails its p95 rule; cpu grows
        // 0.05 cores per user to 10 users, then 0.35: x_max = (4·0.6 − 0.35)/0.05 = 41 lies past the cliff, so the
        // safe capacity is the last stable step before it — 10 users, or 8 when the breakpoint estimate falls just
        // below the kink at 10 and the 10-user step opens the cliff — and cpu (the only resource with a ceiling) is
        // the bottleneck; the stored cpu fit carries the same safe capacity and the bottleneck flag.
        RunConclusion inOrder = conclusions.latest("order-first").orElseThrow();
        RunConclusion amended = conclusions.latest("order-host-last").orElseThrow();
        assertThat(amended.getVersion()).isGreaterThan(inOrder.getVersion());
        assertThat(amended.getMaxStableX()).isEqualTo(10.0);
        assertThat(amended.getMaxStableStepIndex()).isEqualTo(4);
        assertThat(amended.getFirstFailingX()).isEqualTo(12.0);
        assertThat(amended.getFirstFailingStepIndex()).isEqualTo(5);
        assertThat(amended.getBottleneck().getMetric()).isEqualTo("cpu.cores");
        assertThat(amended.getBottleneck().getSource()).isEqualTo("host");
        assertThat(amended.getBottleneck().getRule()).isEqualTo(BottleneckRule.SMALLEST_SAFE_CAPACITY);
        assertThat(amended.getBottleneck().getValue()).isIn(8.0, 10.0);
        assertThat(fits.ofRun("order-host-last")).filteredOn(f -> f.getMetric().equals("cpu.cores")).singleElement()
                .satisfies(f -> {
                    assertThat(f.getSafeCapacityX()).isEqualTo(amended.getBottleneck().getValue());
                    assertThat(f.getBottleneck()).isTrue();
                });
        assertThat(amended.getRunClosed()).isTrue();
    }

    /** The stored rows of a run with the run id, versions, late counts and fit times blanked. */
    record Projection(List<StepAggregate> aggregates, List<StepVerdict> verdicts, List<CapacityFit> fits,
                      List<RunConclusion> conclusion) {
        boolean isComplete() {
            return verdicts.size() == SyntheticRun.STEPS && fits.stream().anyMatch(f -> f.getMetric().equals("cpu.cores")
                    && f.getStepsUsed() == SyntheticRun.STEPS) && conclusion.stream().anyMatch(c -> c.getRunClosed()
                    && c.getResources().stream().anyMatch(e -> e.getMetric().equals("cpu.cores")));
        }
    }

    static Projection projection(StepAggregateRepository aggregates, StepVerdictRepository verdicts,
            CapacityFitRepository fits, RunConclusionRepository conclusions, String run) {
        return new Projection(
                aggregates.ofRun(run).stream().map(a -> StepAggregate.newBuilder(a).setRunId("r").setVersion(0)
                        .setLateCount(0).build()).toList(),
                verdicts.ofRun(run).stream().map(v -> StepVerdict.newBuilder(v).setRunId("r").setVersion(0)
                        .setLateCount(0).setWithdrawn(false).setJudged(true).setWindowStart(null).setWindowEnd(null)
                        .setWarmupMicros(null).build()).toList(),
                fits.ofRun(run).stream().map(f -> CapacityFit.newBuilder(f).setRunId("r").setFittedAt(Instant.EPOCH)
                        .setVersion(0).build()).toList(),
                conclusions.ofRun(run).stream().map(c -> RunConclusion.newBuilder(c).setRunId("r").setVersion(0)
                        .setWarnings(List.of()).setRulesFrom(null).setThroughputLimit(null).setEgressCeiling(null)
                        .build()).toList());
    }
}
