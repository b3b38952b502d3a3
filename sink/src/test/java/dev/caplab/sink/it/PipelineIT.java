package dev.caplab.sink.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.Comparator;
import dev.caplab.schema.event.SloRule;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.store.access.AlertRepository;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.access.SampleRepository;
import dev.caplab.store.access.StepAggregateRepository;
import dev.caplab.store.access.StepVerdictRepository;
import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.AlertKind;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.streams.Events;
import dev.caplab.streams.StreamsRunner;
import dev.caplab.streams.StreamsSettings;
import dev.caplab.streams.SyntheticRun;
import dev.caplab.streams.TopologySettings;
import dev.caplab.sink.ClickHouseSink;
import dev.caplab.sink.SinkSettings;
import dev.caplab.streams.it.PacedInput;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole tier on the in-process broker and the embedded ClickHouse: a stepped run with a cliff goes in as
 * events, and raw samples, lifecycle, aggregates, verdicts, fits and alerts come out as rows; a second sink group
 * replaying the derived topics leaves every (FINAL) read unchanged.
 */
class PipelineIT {

    /** SyntheticRun's host CPU above 10 users: 0.9 + 0.35·(users − 10) = −2.6 + 0.35·users cores. */
    private static final double BASE_ABOVE = 0.9 - 0.35 * 10;
    private static final double SLOPE_ABOVE = 0.35;

    /** The one rule SyntheticRun declares. */
    private static final SloRule P95_RULE = SloRule.newBuilder().setName("p95 latency")
            .setMetric("http_req_duration").setStatistic("p95").setComparator(Comparator.LE).setThreshold(500.0).build();

    private static final String RUN = "it-run-cliff";
    @RegisterExtension
    static final ItEnvironment ENV = new ItEnvironment();

    static void produce(String bootstrap, String runId) {
        produce(bootstrap, runId, SyntheticRun.inputs(runId));
    }

    /** Sends {@code inputs} of one run in order through an idempotent producer, keyed by run id. */
    static void produce(String bootstrap, String runId, List<SyntheticRun.Input> inputs) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(),
                new ByteArraySerializer())) {
            for (SyntheticRun.Input in : inputs) {
                producer.send(PacedInput.toRecord(runId, in));
            }
            producer.flush();
        }
    }

    static StreamsSettings streamsSettings(String bootstrap, Path stateDir) {
        return new StreamsSettings(bootstrap, "caplab-it-streams", stateDir, Duration.ofMillis(200), 1,
                TopologySettings.defaults().withGrace(Duration.ofSeconds(2)));
    }

    @Test
    void steppedRunWithCliffEndsUpAsRowsInClickHouse() throws Exception {
        var samples = new SampleRepository(ENV.db().dataSource());
        var fits = new CapacityFitRepository(ENV.db().dataSource());
        var verdicts = new StepVerdictRepository(ENV.db().dataSource());
        try (StreamsRunner streams = StreamsRunner.start(streamsSettings(ENV.bootstrap(),
                ENV.dir().resolve("state")));
                ClickHouseSink sink = ClickHouseSink.start(SinkSettings.of(ENV.bootstrap()),
                        ENV.db().dataSource())) {
            streams.awaitRunning(Duration.ofSeconds(60));
            produce(ENV.bootstrap(), RUN);
            ItEnvironment.await(Duration.ofSeconds(180), () -> verdicts.ofRun(RUN).size() == SyntheticRun.STEPS
                    && fits.ofRun(RUN).stream().anyMatch(f -> f.getMetric().equals("cpu.cores")
                    && f.getStepsUsed() == SyntheticRun.STEPS)
                    && samples.countOfRun(RUN) >= SyntheticRun.sampleCount(),
                    () -> ": " + verdicts.ofRun(RUN).size() + " of " + SyntheticRun.STEPS + " verdicts, cpu fits "
                            + fits.ofRun(RUN).stream().filter(f -> f.getMetric().equals("cpu.cores"))
                                    .map(CapacityFit::getStepsUsed).toList()
                            + ", " + samples.countOfRun(RUN) + " of " + SyntheticRun.sampleCount() + " samples"
                            + ", streams " + streams.state() + ", sink failure " + sink.failure());
            assertThat(sink.failure()).isNull();
        }
        assertThat(samples.countOfRun(RUN)).isEqualTo(SyntheticRun.sampleCount());
        assertThat(new RunRepository(ENV.db().dataSource()).find(RUN)).get()
                .satisfies(r -> {
                    assertThat(r.endedAt()).isEqualTo(Events.at(10 + SyntheticRun.STEPS * 30));
                    // nested Avro values arrive typed, field by field
                    assertThat(r.sloRules()).containsExactly(P95_RULE);
                });
        List<StepVerdict> v = verdicts.ofRun(RUN);
        assertThat(v.get(SyntheticRun.FIRST_FAILING_STEP).getOutcomes()).singleElement().satisfies(o -> {
            assertThat(o.getRule()).isEqualTo(P95_RULE);
            // p95 from the mergeable quantile sketch: close to the 900 ms every sample had, not exactly it
            assertThat(o.getObserved()).isCloseTo(900.0, withinPercentage(1));
            assertThat(o.getPassed()).isFalse();
            // four significant digits of a p95 within 1 % of 900 ms, then the rule as people write it
            assertThat(o.getReason()).matches("client: (89\\d\\.\\d|9\\d\\d(\\.\\d)?), not ≤ 500");
        });
        assertThat(v.getFirst().getOutcomes()).singleElement().satisfies(o -> {
            assertThat(o.getRule()).isEqualTo(P95_RULE);
            assertThat(o.getObserved()).isCloseTo(120.0, withinPercentage(1));
            assertThat(o.getPassed()).isTrue();
            assertThat(o.getReason()).isNull();
        });
        assertThat(v).extracting(StepVerdict::getPassed).containsExactly(true, true, true, true, true, false, false,
                false);
        CapacityFit cpu = fits.ofRun(RUN).stream().filter(f -> f.getMetric().equals("cpu.cores")).findFirst()
                .orElseThrow();
        assertThat(cpu.getCliff()).isTrue();
        assertThat(cpu.getCapacity()).isEqualTo(4.0);
        // below the knee the host's CPU is 0.35 + 0.05 cores per user (SyntheticRun)
        assertThat(cpu.getSegments().getFirst().getSlope()).isCloseTo(0.05, within(0.01));
        assertThat(cpu.getSegments().getFirst().getIntercept()).isCloseTo(0.35, within(0.05));
        // above 10 users it is 0.9 + 0.35·(users − 10): the two lines meet at 2.95 / 0.30 = 9.83 users, a break
        // that is significant and whose interval lies inside the tested 2..16 users
        double meet = (SyntheticRun.BASE_CORES - BASE_ABOVE) / (SLOPE_ABOVE - SyntheticRun.CORES_PER_USER);
        assertThat(cpu.getBreakpoints()).singleElement().satisfies(b -> {
            assertThat(b.getX()).isCloseTo(meet, within(0.5));
            assertThat(b.getLower95()).isGreaterThanOrEqualTo(SyntheticRun.users(0));
            assertThat(b.getUpper95()).isLessThanOrEqualTo(SyntheticRun.users(SyntheticRun.STEPS - 1));
        });
        assertThat(cpu.getBreakpointPValue()).isLessThan(0.05);
        assertThat(cpu.getSegments().getLast().getSlope()).isCloseTo(SLOPE_ABOVE, within(0.03));
        List<Alert> alerts = new AlertRepository(ENV.db().dataSource()).ofRun(RUN);
        assertThat(alerts).extracting(Alert::getKind).contains(AlertKind.STEP_FAILED, AlertKind.CLIFF_DETECTED);
        StepAggregate tx = new StepAggregateRepository(ENV.db().dataSource()).ofRun(RUN, "net.tx.bytes").stream()
                .filter(a -> a.getStepIndex() == 2).findFirst().orElseThrow();
        assertThat(tx.getRatePerSecond()).isCloseTo(60_000, within(1e-6));

        // A second consumer group re-reads every topic from the start: derived tables are ReplacingMergeTree keyed by
        // identity with deterministic versions, so reads (FINAL) are unchanged before any merge. Raw samples are
        // only deduplicated for re-deliveries within one group (the same batch re-formed from its intent); a replay
        // by a fresh group forms other batches, so it goes to a fresh database (caplab rebuild).
        List<StepAggregate> before = new StepAggregateRepository(ENV.db().dataSource()).ofRun(RUN);
        List<CapacityFit> fitsBefore = fits.ofRun(RUN);
        try (ClickHouseSink replay = ClickHouseSink.start(new SinkSettings(ENV.bootstrap(),
                "caplab-it-replay", List.of(TopicCatalog.STEP_AGGREGATES, TopicCatalog.FITS), 2000,
                Duration.ofMillis(200)), ENV.db().dataSource())) {
            await(Duration.ofSeconds(60), () -> replay.rowsWritten() >= before.size() + fitsBefore.size());
        }
        assertThat(new StepAggregateRepository(ENV.db().dataSource()).ofRun(RUN)).containsExactlyInAnyOrderElementsOf(before);
        assertThat(fits.ofRun(RUN)).containsExactlyInAnyOrderElementsOf(fitsBefore);
    }

    static void await(Duration timeout, BooleanSupplier condition) throws InterruptedException {
        ItEnvironment.await(timeout, condition, () -> "");
    }
}
