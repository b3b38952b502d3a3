package dev.caplab.sink.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.limits.SampleLimits;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.DeadLetterHeaders;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.schema.vocabulary.InputAlerts;
import dev.caplab.sink.ClickHouseSink;
import dev.caplab.sink.SinkSettings;
import dev.caplab.store.access.AlertRepository;
import dev.caplab.store.access.StepAggregateRepository;
import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.streams.Events;
import dev.caplab.streams.StreamsRunner;
import dev.caplab.streams.SyntheticRun;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A batch written straight to the samples topic (the ingest door bypassed) with valid samples and two a sample may
 * not be: a blank source and a label value one byte over its limit. The sink stores the valid ones raw and sets aside
 * only the two, in a dead letter and an alert naming each field and series; streams aggregates the valid ones too.
 */
class MixedBatchIT {

    @RegisterExtension
    static final ItEnvironment ENV = new ItEnvironment();

    private static final String RUN = "mixed-batch";
    private static final double[] VALID = {1.5, 2.5, 4.0, 8.0, 16.25};
    private static final double BLANK_SOURCE_VALUE = 100;
    private static final double LONG_LABEL_VALUE = 200;
    private static final int LONG_LABEL_BYTES = SampleLimits.DEFAULTS.maxLabelValueBytes() + 1;

    @Test
    void theValidSamplesOfABatchAreStoredAndOnlyTheBadOnesSetAside() throws Exception {
        List<Sample> batch = new ArrayList<>();
        for (int i = 0; i < VALID.length; i++) {
            batch.add(Events.sample("host-1", "cpu.cores", SampleKind.GAUGE, 2 + i, VALID[i], Map.of("zone", "a")));
            if (i == 1) {
                batch.add(Events.gauge(" ", "cpu.cores", 3.5, BLANK_SOURCE_VALUE));
            }
        }
        batch.add(Events.sample("host-2", "cpu.cores", SampleKind.GAUGE, 7.5, LONG_LABEL_VALUE,
                Map.of("trace", "t".repeat(LONG_LABEL_BYTES))));
        List<SyntheticRun.Input> inputs = List.of(
                new SyntheticRun.Input(Events.runStarted(RUN, "users", List.of(), 4), null),
                new SyntheticRun.Input(Events.stepStarted(RUN, 0, Map.of("users", 10.0), 1, 0), null),
                new SyntheticRun.Input(null, batch),
                new SyntheticRun.Input(Events.stepEnded(RUN, 0, 10), null),
                new SyntheticRun.Input(Events.runEnded(RUN, 11), null));
        var aggregates = new StepAggregateRepository(ENV.db().dataSource());
        var alerts = new AlertRepository(ENV.db().dataSource());
        double validSum = 1.5 + 2.5 + 4.0 + 8.0 + 16.25;

        try (StreamsRunner streams = StreamsRunner.start(PipelineIT.streamsSettings(ENV.bootstrap(),
                ENV.dir().resolve("state")));
                ClickHouseSink sink = ClickHouseSink.start(SinkSettings.of(ENV.bootstrap()),
                        ENV.db().dataSource())) {
            streams.awaitRunning(Duration.ofSeconds(60));
            PipelineIT.produce(ENV.bootstrap(), RUN, inputs);
            ENV.awaitCommittedAll(SinkSettings.DEFAULT_GROUP, List.of(TopicCatalog.SAMPLES), Duration.ofSeconds(120));
            ItEnvironment.await(Duration.ofSeconds(120), () -> aggregateOfHost1(aggregates).isPresent(),
                    () -> ": aggregates of " + RUN + " " + aggregates.ofRun(RUN) + "; streams " + streams.status());
            assertThat(sink.status().up()).as(sink.status().detail()).isTrue();
        }

        // every sample the sink consumed is settled (offsets committed): what is not stored now never will be
        List<Double> stored = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        ENV.query("SELECT value, source FROM samples WHERE run_id = '" + RUN + "' ORDER BY ts", rs -> {
            stored.add(rs.getDouble(1));
            sources.add(rs.getString(2));
        });
        assertThat(stored).as("the valid samples, stored raw, each once").containsExactly(1.5, 2.5, 4.0, 8.0, 16.25);
        assertThat(sources).as("no blank source stored").containsOnly("host-1");
        assertThat(ENV.scalar("SELECT count() FROM samples WHERE run_id = '" + RUN + "' AND labels['zone'] = 'a'"))
                .as("their labels stored").isEqualTo(VALID.length);

        StepAggregate host1 = aggregateOfHost1(aggregates).orElseThrow();
        assertThat(host1.getCount()).as("step 0 aggregates the valid samples").isEqualTo(VALID.length);
        assertThat(host1.getSum()).isCloseTo(validSum, offset(1e-9));
        assertThat(aggregates.ofRun(RUN)).as("no series of a set-aside sample aggregated")
                .noneMatch(a -> a.getSource().isBlank() || a.getSource().equals("host-2"));

        List<ConsumerRecord<String, byte[]>> sinkLetters = ENV.deadLetters().stream()
                .filter(r -> RUN.equals(r.key()) && "sink".equals(ItEnvironment.header(r, DeadLetterHeaders.STAGE)))
                .toList();
        assertThat(sinkLetters).as("one dead letter from the sink for the batch").hasSize(1);
        ConsumerRecord<String, byte[]> letter = sinkLetters.getFirst();
        assertThat(ItEnvironment.header(letter, DeadLetterHeaders.REASON))
                .contains("2 of 7 samples set aside, not stored raw")
                .contains("source: must not be blank (series  , cpu.cores)")
                .contains("trace: label value is " + LONG_LABEL_BYTES + " bytes, over the limit of "
                        + SampleLimits.DEFAULTS.maxLabelValueBytes() + " bytes (series host-2, cpu.cores)");
        SampleBatch setAside = EventSerdes.sampleBatch().deserialize(TopicCatalog.SAMPLES, letter.value());
        assertThat(setAside.getRunId().toString()).isEqualTo(RUN);
        assertThat(setAside.getSamples()).as("the dead letter holds only the samples set aside")
                .extracting(Sample::getValue).containsExactly(BLANK_SOURCE_VALUE, LONG_LABEL_VALUE);

        ItEnvironment.await(Duration.ofSeconds(60), () -> alerts.ofRun(RUN).stream().anyMatch(a ->
                a.getMessage().startsWith(InputAlerts.REJECTED + "sink: 2 of 7 samples set aside")
                && a.getMessage().contains("source: must not be blank")
                && a.getMessage().contains("trace: label value")),
                () -> ": alerts of " + RUN + " " + alerts.ofRun(RUN).stream().map(Alert::getMessage).toList());
    }

    private static Optional<StepAggregate> aggregateOfHost1(StepAggregateRepository aggregates) {
        return aggregates.ofRun(RUN).stream().filter(a -> a.getStepIndex() == 0 && a.getSource().equals("host-1")
                && a.getMetric().equals("cpu.cores") && a.getCount() == VALID.length).findFirst();
    }
}
