package dev.caplab.streams.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.streams.Events;
import dev.caplab.streams.StreamsRunner;
import dev.caplab.streams.StreamsSettings;
import dev.caplab.streams.SyntheticRun;
import dev.caplab.streams.TopologySettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A run's last step has nothing after it in event time, so it closes on the wall clock, a grace after its
 * {@code StepEnded} was seen. Under exactly-once its aggregate is visible to read_committed readers (the sink) only
 * once streams commits; with a long commit interval it must still arrive within a tick of being due, not at the next
 * interval: the per-step delay target is grace + 2 s.
 */
class WallClockCloseIT {

    @RegisterExtension
    static final KafkaEnvironment ENV = new KafkaEnvironment();
    private static final String RUN = "wall-clock-close";
    private static final Duration GRACE = Duration.ofSeconds(2);
    /**
     * Far longer than the allowance below, so an aggregate left for the interval's commit passes only by luck (1 in 6);
     * below Streams' 10 s transaction timeout, which it must not exceed.
     */
    private static final Duration COMMIT_INTERVAL = Duration.ofSeconds(9);
    /** Ticks of 200 ms, a commit, a fetch: well under a second on an idle machine; 1.5 s leaves room for a loaded one. */
    private static final Duration ALLOWANCE = Duration.ofMillis(1500);

    @Test
    void theLastStepIsVisibleWithinATickOfItsGraceWhateverTheCommitInterval() throws Exception {
        StreamsSettings settings = new StreamsSettings(ENV.bootstrap(), "wall-clock-close-it",
                ENV.dir().resolve("state"), COMMIT_INTERVAL, 1, TopologySettings.defaults().withGrace(GRACE));
        try (StreamsRunner streams = StreamsRunner.start(settings);
                KafkaProducer<String, byte[]> producer = producer();
                KafkaConsumer<String, byte[]> aggregates = committedReader()) {
            streams.awaitRunning(Duration.ofSeconds(60));
            aggregates.subscribe(List.of(TopicCatalog.STEP_AGGREGATES));
            List<SyntheticRun.Input> before = new ArrayList<>();
            before.add(new SyntheticRun.Input(Events.runStarted(RUN, "users", List.of(), 2), null));
            before.add(new SyntheticRun.Input(Events.stepStarted(RUN, 0, Map.of("users", 10.0), 10, 0), null));
            List<Sample> samples = new ArrayList<>();
            for (int s = 10; s < 40; s++) {
                samples.add(Events.gauge("sut-host", "cpu.cores", s, 0.5));
            }
            before.add(new SyntheticRun.Input(null, samples));
            for (SyntheticRun.Input in : before) {
                producer.send(PacedInput.toRecord(RUN, in));
            }
            producer.flush();
            // Wait past the first interval commit, so the clock below starts with streams idle and committed.
            Thread.sleep(COMMIT_INTERVAL.plusSeconds(1).toMillis());
            producer.send(PacedInput.toRecord(RUN, new SyntheticRun.Input(Events.stepEnded(RUN, 0, 40), null))).get();
            long ended = System.nanoTime();

            long deadline = ended + COMMIT_INTERVAL.multipliedBy(2).toNanos();
            Long arrived = null;
            while (arrived == null && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : aggregates.poll(Duration.ofMillis(50))) {
                    StepAggregate a = EventSerdes.stepAggregate().deserialize(r.topic(), r.value());
                    if (a.getStepIndex() == 0 && a.getMetric().equals("cpu.cores")) {
                        arrived = System.nanoTime();
                    }
                }
            }
            assertThat(arrived).as("step 0's cpu.cores aggregate within %s of its StepEnded", COMMIT_INTERVAL
                    .multipliedBy(2)).isNotNull();
            Duration delay = Duration.ofNanos(arrived - ended);
            assertThat(delay).as("StepEnded → committed aggregate (grace %s, commit interval %s)", GRACE,
                    COMMIT_INTERVAL).isLessThanOrEqualTo(GRACE.plus(ALLOWANCE));
        }
    }

    /**
     * A sender that vouches every sample was acknowledged before the run's end (a CI job, the CLI after a file, a
     * load tool that is the run's only source) gets its last step at once, not a grace later; a run ended the same
     * way without saying so, sent alongside, still waits its grace.
     */
    @Test
    void aRunEndedWithAllSamplesSentClosesItsLastStepWithoutWaitingTheGrace() throws Exception {
        Duration grace = Duration.ofSeconds(30);
        Duration expected = Duration.ofSeconds(5);
        StreamsSettings settings = new StreamsSettings(ENV.bootstrap(), "all-samples-sent-it",
                ENV.dir().resolve("state-all-sent"), Duration.ofSeconds(1), 1,
                TopologySettings.defaults().withGrace(grace));
        String vouched = "all-samples-sent";
        String silent = "end-without-word";
        try (StreamsRunner streams = StreamsRunner.start(settings);
                KafkaProducer<String, byte[]> producer = producer();
                KafkaConsumer<String, byte[]> aggregates = committedReader()) {
            streams.awaitRunning(Duration.ofSeconds(60));
            aggregates.subscribe(List.of(TopicCatalog.STEP_AGGREGATES));
            for (String run : List.of(vouched, silent)) {
                List<SyntheticRun.Input> inputs = new ArrayList<>();
                inputs.add(new SyntheticRun.Input(Events.runStarted(run, "users", List.of(), 1), null));
                inputs.add(new SyntheticRun.Input(Events.stepStarted(run, 0, Map.of("users", 10.0), 10, 0), null));
                List<Sample> samples = new ArrayList<>();
                for (int s = 10; s < 40; s++) {
                    samples.add(Events.gauge("sut-host", "cpu.cores", s, 0.5));
                }
                inputs.add(new SyntheticRun.Input(null, samples));
                inputs.add(new SyntheticRun.Input(Events.stepEnded(run, 0, 40), null));
                inputs.add(new SyntheticRun.Input(RunEnded.newBuilder(Events.runEnded(run, 40))
                        .setAllSamplesSent(run.equals(vouched)).build(), null));
                for (SyntheticRun.Input in : inputs) {
                    producer.send(PacedInput.toRecord(run, in));
                }
            }
            producer.flush();
            long ended = System.nanoTime();

            Map<String, Long> arrived = new HashMap<>();
            while (System.nanoTime() < ended + expected.toNanos()) {
                for (ConsumerRecord<String, byte[]> r : aggregates.poll(Duration.ofMillis(50))) {
                    StepAggregate a = EventSerdes.stepAggregate().deserialize(r.topic(), r.value());
                    if (a.getStepIndex() == 0 && a.getMetric().equals("cpu.cores")) {
                        arrived.putIfAbsent(a.getRunId(), System.nanoTime());
                    }
                }
            }
            assertThat(arrived).as("step 0's cpu.cores aggregate within %s of the runs' ends (grace %s)", expected,
                    grace).containsOnlyKeys(vouched);
        }
    }

    private static KafkaProducer<String, byte[]> producer() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, ENV.bootstrap());
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }

    private static KafkaConsumer<String, byte[]> committedReader() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, ENV.bootstrap());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "wall-clock-close-reader");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
    }
}
