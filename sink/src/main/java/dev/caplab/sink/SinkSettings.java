package dev.caplab.sink;

import dev.caplab.schema.kafka.KafkaClientSecurity;
import dev.caplab.schema.topic.TopicCatalog;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Where the sink reads and how it batches: brokers and how it logs in, consumer group, topics, the largest batch
 * per partition and how long to wait for more records before writing a partial one. {@code maxBatchRecords} is also the alignment of
 * batch boundaries (offsets {@code k·n … (k+1)·n-1} per partition), so it is part of the dedup contract: a replay
 * deduplicates against earlier inserts only with the same value.
 */
public record SinkSettings(String bootstrapServers, String groupId, List<String> topics, int maxBatchRecords,
                           Duration pollTimeout, KafkaClientSecurity kafkaSecurity, Duration samplesLinger) {

    public static final String DEFAULT_GROUP = "caplab-sink";
    /** Raw and derived topics; the dead-letter topic is for operators, not tables. */
    public static final List<String> TOPICS = List.of(TopicCatalog.RUNS, TopicCatalog.SAMPLES,
            TopicCatalog.STEP_AGGREGATES, TopicCatalog.VERDICTS, TopicCatalog.FITS, TopicCatalog.ALERTS,
            TopicCatalog.LATENESS, TopicCatalog.CONCLUSIONS);

    public SinkSettings {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(groupId, "groupId");
        topics = List.copyOf(topics);
        if (maxBatchRecords < 1) {
            throw new IllegalArgumentException("maxBatchRecords must be >= 1, was " + maxBatchRecords);
        }
        Objects.requireNonNull(pollTimeout, "pollTimeout");
        Objects.requireNonNull(kafkaSecurity, "kafkaSecurity");
        Objects.requireNonNull(samplesLinger, "samplesLinger");
        if (samplesLinger.isNegative()) {
            throw new IllegalArgumentException("samplesLinger must be >= 0, was " + samplesLinger);
        }
    }

    /** A sink that does not authenticate to Kafka (PLAINTEXT) and writes open sample batches as soon as caught up. */
    public SinkSettings(String bootstrapServers, String groupId, List<String> topics, int maxBatchRecords,
            Duration pollTimeout) {
        this(bootstrapServers, groupId, topics, maxBatchRecords, pollTimeout, KafkaClientSecurity.NONE,
                Duration.ZERO);
    }

    /** How long an open batch of {@code topic} may wait for more records once the sink is caught up. */
    public Duration lingerOf(String topic) {
        return TopicCatalog.SAMPLES.equals(topic) ? samplesLinger : Duration.ZERO;
    }

    /**
     * Every table topic, batches of up to 400 records per partition, 500 ms polls. A SampleBatch record holds up
     * to 1,000 samples, so a batch is up to 400,000 rows: large for ClickHouse, bounded for the heap. 400, not
     * 100: a sink behind the log would cut 100-record ranges into parts chDB then merges again (bench/README.md). A
     * multiple of 100, the size older stores' batches were cut at, so each of their range ends is still one.
     * An open batch of raw
     * samples waits up to {@link #SAMPLES_LINGER} for more once caught up: written as soon as caught up, a live
     * sink would make an insert - a new part for chDB to write and merge - per partition and poll, a few thousand rows
     * each. Derived topics (aggregates, verdicts) never wait: their delay is what users watch.
     */
    public static SinkSettings of(String bootstrapServers) {
        return new SinkSettings(bootstrapServers, DEFAULT_GROUP, TOPICS, 400, Duration.ofMillis(500),
                KafkaClientSecurity.NONE, SAMPLES_LINGER);
    }

    /** How long an open batch of raw samples may wait for more records by default. */
    public static final Duration SAMPLES_LINGER = Duration.ofSeconds(1);

    public SinkSettings withGroupId(String id) {
        return new SinkSettings(bootstrapServers, id, topics, maxBatchRecords, pollTimeout, kafkaSecurity,
                samplesLinger);
    }

    public SinkSettings withKafkaSecurity(KafkaClientSecurity s) {
        return new SinkSettings(bootstrapServers, groupId, topics, maxBatchRecords, pollTimeout, s, samplesLinger);
    }
}
