package dev.caplab.streams;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunLateness;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/** The production topology on a TopologyTestDriver, with typed input and output topics. */
public final class TopologyFixture implements AutoCloseable {

    public final TopologyTestDriver driver;
    private final TestInputTopic<String, byte[]> runs;
    private final TestInputTopic<String, byte[]> samples;
    public final TestOutputTopic<String, StepAggregate> aggregates;
    public final TestOutputTopic<String, StepVerdict> verdicts;
    public final TestOutputTopic<String, CapacityFit> fits;
    public final TestOutputTopic<String, Alert> alerts;
    public final TestOutputTopic<String, RunLateness> lateness;
    public final TestOutputTopic<String, RunConclusion> conclusions;
    public final TestOutputTopic<String, byte[]> deadLetter;
    /** What the topology itself writes to the lifecycle topic (inferred starts, idle ends); the driver feeds it back. */
    public final TestOutputTopic<String, SpecificRecord> lifecycleOut;
    private Instant recordTime = Instant.parse("2026-01-01T00:00:00Z");

    public TopologyFixture(TopologySettings settings, Path stateDir) {
        Properties props = CaplabStreamsConfig.properties(StreamsSettings.of("unused:9092", stateDir)
                .withTopology(settings));
        // The driver pipes one record at a time: never hold a record back waiting for the other input partition.
        props.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "-1");
        driver = new TopologyTestDriver(CaplabTopology.build(new StreamsBuilder(), settings).build(), props,
                recordTime);
        runs = driver.createInputTopic(TopicCatalog.RUNS, new StringSerializer(), new ByteArraySerializer());
        samples = driver.createInputTopic(TopicCatalog.SAMPLES, new StringSerializer(), new ByteArraySerializer());
        StringDeserializer keys = new StringDeserializer();
        aggregates = driver.createOutputTopic(TopicCatalog.STEP_AGGREGATES, keys, EventSerdes.stepAggregate());
        verdicts = driver.createOutputTopic(TopicCatalog.VERDICTS, keys, EventSerdes.stepVerdict());
        fits = driver.createOutputTopic(TopicCatalog.FITS, keys, EventSerdes.capacityFit());
        alerts = driver.createOutputTopic(TopicCatalog.ALERTS, keys, EventSerdes.alert());
        lateness = driver.createOutputTopic(TopicCatalog.LATENESS, keys, EventSerdes.runLateness());
        conclusions = driver.createOutputTopic(TopicCatalog.CONCLUSIONS, keys, EventSerdes.runConclusion());
        deadLetter = driver.createOutputTopic(TopicCatalog.DEAD_LETTER, keys, Serdes.ByteArray().deserializer());
        lifecycleOut = driver.createOutputTopic(TopicCatalog.RUNS, keys, EventSerdes.lifecycle());
    }

    public void lifecycle(String runId, SpecificRecord event) {
        runs.pipeInput(runId, EventSerdes.lifecycle().serialize(TopicCatalog.RUNS, event), next());
    }

    public void samples(String runId, List<Sample> batch) {
        samples.pipeInput(runId, EventSerdes.sampleBatch().serialize(TopicCatalog.SAMPLES,
                Events.batch(runId, batch)), next());
    }

    /**
     * A step or run end as ingest's HTTP API publishes it: with {@link TopicCatalog#SAMPLES_MARK_HEADER}, and stamped
     * after every record piped until its samples mark ({@link #samplesMark}), as a request's ends are stamped after
     * its samples.
     */
    public void markedEnd(String runId, SpecificRecord end) {
        runs.pipeInput(new TestRecord<>(runId, EventSerdes.lifecycle().serialize(TopicCatalog.RUNS, end),
                new RecordHeaders(List.of(new RecordHeader(TopicCatalog.SAMPLES_MARK_HEADER, new byte[0]))),
                markStamp()));
    }

    /** The samples mark of the ends piped with {@link #markedEnd}, stamped like them, as ingest sends it. */
    public void samplesMark(String runId) {
        samples.pipeInput(runId, EventSerdes.sampleBatch().serialize(TopicCatalog.SAMPLES,
                Events.batch(runId, List.of())), markStamp());
        recordTime = markStamp();
    }

    private Instant markStamp() {
        return recordTime.plus(Duration.ofHours(1)).truncatedTo(java.time.temporal.ChronoUnit.HOURS);
    }

    public void rawSamples(String runId, byte[] bytes) {
        samples.pipeInput(runId, bytes, next());
    }

    public void rawRuns(String runId, byte[] bytes) {
        runs.pipeInput(runId, bytes, next());
    }

    /**
     * Reads the step aggregates emitted so far; per step and metric of {@code source}, the newest version, keyed
     * {@code "<step>|<metric>"}.
     */
    public java.util.Map<String, StepAggregate> newestAggregates(String source) {
        java.util.Map<String, StepAggregate> newest = new java.util.HashMap<>();
        for (StepAggregate a : aggregates.readValuesToList()) {
            if (a.getSource().equals(source)) {
                newest.merge(a.getStepIndex() + "|" + a.getMetric(), a,
                        (x, y) -> y.getVersion() >= x.getVersion() ? y : x);
            }
        }
        return newest;
    }

    /**
     * Moves the wall clock on by {@code d} as a running stream thread would begin to live it: a punctuation every
     * 200 ms (the run processor's close tick) for the first ten, so an idle task notices it is idle, then the rest at
     * once (a day of allowed lateness is not 432,000 punctuations).
     */
    public void advanceWallClock(Duration d) {
        Duration left = d;
        for (int i = 0; i < 10 && left.compareTo(TICK) > 0; i++) {
            driver.advanceWallClockTime(TICK);
            left = left.minus(TICK);
        }
        driver.advanceWallClockTime(left);
    }

    private static final Duration TICK = Duration.ofMillis(200);

    public double metric(String name) {
        return driver.metrics().entrySet().stream().filter(e -> e.getKey().name().equals(name))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
    }

    private Instant next() {
        recordTime = recordTime.plusMillis(1);
        return recordTime;
    }

    @Override
    public void close() {
        driver.close();
    }
}
