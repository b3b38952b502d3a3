package dev.caplab.sink.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.topic.DeadLetterHeaders;
import dev.caplab.schema.vocabulary.InputAlerts;
import dev.caplab.store.access.AlertRepository;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.StepVerdictRepository;
import dev.caplab.schema.event.Alert;
import dev.caplab.streams.PoisonInputs;
import dev.caplab.streams.StreamsRunner;
import dev.caplab.streams.SyntheticRun;
import dev.caplab.sink.ClickHouseSink;
import dev.caplab.sink.SinkSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue #11's poison inputs written straight to the raw topics (the ingest door bypassed): a blank run id key, a
 * blank source, a blank metric, a 70,000-byte label and metric name, undecodable bytes, and a 200,000-sample run
 * with inferred steps whose old state record grew past 4 MB. Afterwards a normal stepped run must still be stepped,
 * judged and fitted, and again after the streams app and the sink are restarted; the poison runs have dead letters
 * and alerts with reasons, and the many-level run is stepped like any other.
 */
class PoisonIT {

    @RegisterExtension
    static final ItEnvironment ENV = new ItEnvironment();

    @Test
    void noSingleInputStopsThePipelineBeforeOrAfterARestart() throws Exception {
        Path state = ENV.dir().resolve("state");
        var verdicts = new StepVerdictRepository(ENV.db().dataSource());
        var alerts = new AlertRepository(ENV.db().dataSource());
        try (StreamsRunner streams = StreamsRunner.start(PipelineIT.streamsSettings(ENV.bootstrap(), state));
                ClickHouseSink sink = ClickHouseSink.start(SinkSettings.of(ENV.bootstrap()), ENV.db().dataSource())) {
            streams.awaitRunning(Duration.ofSeconds(60));
            send(PoisonInputs.all());
            PipelineIT.produce(ENV.bootstrap(), "after-poison");
            awaitSteppedJudgedFitted("after-poison", streams, sink);
            ItEnvironment.await(Duration.ofSeconds(120), () -> verdicts.ofRun(PoisonInputs.LEVELS_RUN).size()
                    == PoisonInputs.LEVEL_STEPS, () -> ": the 200,000-sample run has "
                    + verdicts.ofRun(PoisonInputs.LEVELS_RUN).size() + " verdicts, streams " + streams.state());
            assertThat(streams.status().up()).isTrue();
            assertThat(sink.status().up()).as(sink.status().detail()).isTrue();
        }

        List<ConsumerRecord<String, byte[]>> dead = ENV.deadLetters();
        for (PoisonInputs.Input in : PoisonInputs.all()) {
            if (in.reason() != null) {
                assertThat(dead).as("dead letter of %s on %s", in.key().isBlank() ? "a blank key" : in.key(),
                        in.topic()).anyMatch(r -> in.key().equals(r.key() == null ? "" : r.key())
                        && ItEnvironment.header(r, DeadLetterHeaders.REASON).contains(in.reason()));
            }
        }
        assertThat(dead).as("the sink dead-letters rows ClickHouse cannot take (blank run id)")
                .anyMatch(r -> "sink".equals(ItEnvironment.header(r, DeadLetterHeaders.STAGE)));
        for (String run : List.of("poison-blank-source", "poison-blank-metric", "poison-long-label",
                "poison-long-metric")) {
            ItEnvironment.await(Duration.ofSeconds(60), () -> alerts.ofRun(run).stream()
                    .anyMatch(a -> a.getMessage().startsWith(InputAlerts.REJECTED)), () -> ": alerts of " + run + " "
                    + alerts.ofRun(run).stream().map(Alert::getMessage).toList());
        }

        // The same state directory and groups: whatever of the poison was not committed is replayed now.
        try (StreamsRunner streams = StreamsRunner.start(PipelineIT.streamsSettings(ENV.bootstrap(), state));
                ClickHouseSink sink = ClickHouseSink.start(SinkSettings.of(ENV.bootstrap()), ENV.db().dataSource())) {
            streams.awaitRunning(Duration.ofSeconds(60));
            PipelineIT.produce(ENV.bootstrap(), "after-restart");
            awaitSteppedJudgedFitted("after-restart", streams, sink);
            assertThat(streams.status().up()).isTrue();
            assertThat(sink.status().up()).as(sink.status().detail()).isTrue();
        }
    }

    private static void awaitSteppedJudgedFitted(String run, StreamsRunner streams, ClickHouseSink sink)
            throws InterruptedException {
        var verdicts = new StepVerdictRepository(ENV.db().dataSource());
        var fits = new CapacityFitRepository(ENV.db().dataSource());
        ItEnvironment.await(Duration.ofSeconds(180), () -> verdicts.ofRun(run).size() == SyntheticRun.STEPS
                && fits.ofRun(run).stream().anyMatch(f -> f.getMetric().equals("cpu.cores")
                && f.getStepsUsed() == SyntheticRun.STEPS),
                () -> ": " + run + " has " + verdicts.ofRun(run).size() + " of " + SyntheticRun.STEPS
                        + " verdicts; streams " + streams.status() + "; sink " + sink.status());
    }

    private static void send(List<PoisonInputs.Input> inputs) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, ENV.bootstrap());
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(),
                new ByteArraySerializer())) {
            for (PoisonInputs.Input in : inputs) {
                producer.send(new ProducerRecord<>(in.topic(), in.key(), in.value()));
            }
            producer.flush();
        }
    }
}
