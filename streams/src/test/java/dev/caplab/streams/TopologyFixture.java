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
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

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

    public void advanceWallClock(Duration d) {
        driver.advanceWallClockTime(d);
    }

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
