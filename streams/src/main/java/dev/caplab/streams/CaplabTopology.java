package dev.caplab.streams;

import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.streams.aggregate.PartialSerde;
import dev.caplab.streams.input.DecodeProcessor;
import dev.caplab.streams.input.InputEvent;
import dev.caplab.streams.rebuild.Generation;
import dev.caplab.streams.run.DerivedEvent;
import dev.caplab.streams.run.InferredRuns;
import dev.caplab.streams.run.MeasuredCeilings;
import dev.caplab.streams.run.RunProcessor;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;

/**
 * The caplab topology, a pure function of the builder and settings:
 * runs + samples (raw bytes) → decode (poison → dead letter) → merge (co-partitioned by run id) → run processor
 * ({@link RunProcessor}: lifecycle, admission, step assignment, step closing — aggregation, judging —, fitting,
 * conclusion, expiry; stores {@link #RUN_STATE_STORE}, {@link #PARTIALS_STORE})
 * → step aggregates, verdicts, fits, alerts, lateness counts, the inputs it left out (→ dead letter, with the reason),
 * and the lifecycle of runs nobody declared (→ back to the runs topic, {@link InferredRuns}). No repartition: every operation keeps the run-id key. Derived versions
 * carry the {@link Generation} (live, or which rebuild), so a rebuild's rows outrank the live ones in the store.
 */
public final class CaplabTopology {

    public static final String SOURCE_RUNS = "caplab-source-runs";
    public static final String SOURCE_SAMPLES = "caplab-source-samples";
    public static final String DECODE_RUNS = "caplab-decode-runs";
    public static final String DECODE_SAMPLES = "caplab-decode-samples";
    public static final String MERGE_INPUT = "caplab-merge-input";
    public static final String SPLIT_INPUT = "caplab-split-input-";
    public static final String RUN_PROCESSOR = "caplab-run-processor";
    public static final String SPLIT_OUTPUT = "caplab-split-output-";
    public static final String SINK_DEAD_LETTER = "caplab-sink-dead-letter";
    public static final String SINK_AGGREGATES = "caplab-sink-step-aggregates";
    public static final String SINK_VERDICTS = "caplab-sink-verdicts";
    public static final String SINK_FITS = "caplab-sink-fits";
    public static final String SINK_ALERTS = "caplab-sink-alerts";
    public static final String SINK_LATENESS = "caplab-sink-run-lateness";
    public static final String SINK_CONCLUSIONS = "caplab-sink-conclusions";
    public static final String SINK_REJECTED = "caplab-sink-rejected";
    public static final String SINK_LIFECYCLE = "caplab-sink-lifecycle";
    /**
     * {@code max.message.bytes} pinned on both changelogs: Kafka's default, stated so a broker default cannot shrink
     * it below the state bound ({@link dev.caplab.streams.run.RunLimits#maxStateBytes()}, half of it).
     */
    public static final String CHANGELOG_MAX_MESSAGE_BYTES = "1048588";
    /**
     * Run id → encoded {@code RunState} (at most {@link dev.caplab.streams.run.RunLimits#maxStateBytes()});
     * changelog {@code <application.id>-caplab-run-state-changelog}; deleted after the run's allowed lateness.
     */
    public static final String RUN_STATE_STORE = "caplab-run-state";
    /**
     * Run id + 1-second bucket + series → that series' partial aggregate over that second, kept until the run
     * expires. Named apart from {@code caplab-sample-buckets}, a store of another value format, so that changelog is
     * never read as partials.
     */
    public static final String PARTIALS_STORE = "caplab-partials";
    /** Run id → what {@link InferredRuns} published for a run nobody declared (its inferred start, its end). */
    public static final String INFERRED_RUN_STORE = InferredRuns.STORE;
    /** Run id → the latest egress ceiling measured by iperf3 ({@link MeasuredCeilings}). */
    public static final String MEASURED_CEILING_STORE = MeasuredCeilings.STORE;

    private CaplabTopology() {
    }

    /** The live topology: {@link Generation#LIVE}. */
    public static StreamsBuilder build(StreamsBuilder builder, TopologySettings settings) {
        return build(builder, settings, Generation.LIVE);
    }

    public static StreamsBuilder build(StreamsBuilder builder, TopologySettings settings, Generation generation) {
        Map<String, String> changelog = Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, CHANGELOG_MAX_MESSAGE_BYTES);
        // Cached: a run's state and its current seconds' partials are rewritten by every batch; the cache keeps the
        // latest value and writes RocksDB and the changelog once per commit (or eviction), not once per batch.
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(RUN_STATE_STORE),
                Serdes.String(), Serdes.ByteArray()).withLoggingEnabled(changelog).withCachingEnabled());
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(PARTIALS_STORE),
                Serdes.String(), PartialSerde.serde()).withLoggingEnabled(changelog).withCachingEnabled());
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(INFERRED_RUN_STORE),
                Serdes.String(), Serdes.ByteArray()).withLoggingEnabled(changelog));
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(MEASURED_CEILING_STORE),
                Serdes.String(), Serdes.ByteArray()).withLoggingEnabled(changelog));

        KStream<String, InputEvent> lifecycle = builder
                .stream(TopicCatalog.RUNS, Consumed.with(Serdes.String(), Serdes.ByteArray()).withName(SOURCE_RUNS))
                .processValues(DecodeProcessor::lifecycle, Named.as(DECODE_RUNS));
        KStream<String, InputEvent> samples = builder
                .stream(TopicCatalog.SAMPLES, Consumed.with(Serdes.String(), Serdes.ByteArray())
                        .withName(SOURCE_SAMPLES))
                .processValues(DecodeProcessor::samples, Named.as(DECODE_SAMPLES));

        Map<String, KStream<String, InputEvent>> input = lifecycle.merge(samples, Named.as(MERGE_INPUT))
                .split(Named.as(SPLIT_INPUT))
                .branch((runId, e) -> e instanceof InputEvent.Poison, Branched.as("poison"))
                .defaultBranch(Branched.as("events"));
        input.get(SPLIT_INPUT + "poison")
                .mapValues(e -> DeadLetterHandler.sendableValue(((InputEvent.Poison) e).bytes()),
                        Named.as("caplab-poison-bytes"))
                .to(TopicCatalog.DEAD_LETTER, Produced.with(Serdes.String(), Serdes.ByteArray())
                        .withName(SINK_DEAD_LETTER));

        Map<String, KStream<String, DerivedEvent>> derived = input.get(SPLIT_INPUT + "events")
                .process(() -> new RunProcessor(settings, RUN_STATE_STORE, PARTIALS_STORE, INFERRED_RUN_STORE,
                        MEASURED_CEILING_STORE), Named.as(RUN_PROCESSOR), RUN_STATE_STORE, PARTIALS_STORE,
                        INFERRED_RUN_STORE, MEASURED_CEILING_STORE)
                .split(Named.as(SPLIT_OUTPUT))
                .branch((k, e) -> e instanceof DerivedEvent.Aggregate, Branched.as("aggregates"))
                .branch((k, e) -> e instanceof DerivedEvent.Verdict, Branched.as("verdicts"))
                .branch((k, e) -> e instanceof DerivedEvent.Fit, Branched.as("fits"))
                .branch((k, e) -> e instanceof DerivedEvent.Rejected, Branched.as("rejected"))
                .branch((k, e) -> e instanceof DerivedEvent.Lateness, Branched.as("lateness"))
                .branch((k, e) -> e instanceof DerivedEvent.Concluded, Branched.as("conclusions"))
                .branch((k, e) -> e instanceof DerivedEvent.Lifecycle, Branched.as("lifecycle"))
                .defaultBranch(Branched.as("alerts"));
        derived.get(SPLIT_OUTPUT + "rejected")
                .mapValues(e -> DeadLetterHandler.sendableValue(((DerivedEvent.Rejected) e).bytes()),
                        Named.as("caplab-unwrap-rejected"))
                .to(TopicCatalog.DEAD_LETTER, Produced.with(Serdes.String(), Serdes.ByteArray())
                        .withName(SINK_REJECTED));
        // Inferred starts and idle ends are facts about the raw run, so they join the lifecycle topic (and come back
        // as input, which InferredRuns recognises). A rebuild replays that topic, where the live app already put them.
        derived.get(SPLIT_OUTPUT + "lifecycle")
                .filter((k, e) -> generation.equals(Generation.LIVE), Named.as("caplab-lifecycle-live-only"))
                .mapValues(e -> ((DerivedEvent.Lifecycle) e).value(), Named.as("caplab-unwrap-lifecycle"))
                .to(TopicCatalog.RUNS, Produced.with(Serdes.String(), EventSerdes.lifecycle())
                        .withName(SINK_LIFECYCLE));
        derived.get(SPLIT_OUTPUT + "aggregates")
                .mapValues(e -> generation.stamp(((DerivedEvent.Aggregate) e).value()), Named.as("caplab-unwrap-aggregates"))
                .to(TopicCatalog.STEP_AGGREGATES, Produced.with(Serdes.String(), EventSerdes.stepAggregate())
                        .withName(SINK_AGGREGATES));
        derived.get(SPLIT_OUTPUT + "verdicts")
                .mapValues(e -> generation.stamp(((DerivedEvent.Verdict) e).value()), Named.as("caplab-unwrap-verdicts"))
                .to(TopicCatalog.VERDICTS, Produced.with(Serdes.String(), EventSerdes.stepVerdict())
                        .withName(SINK_VERDICTS));
        derived.get(SPLIT_OUTPUT + "fits")
                .mapValues(e -> generation.stamp(((DerivedEvent.Fit) e).value()), Named.as("caplab-unwrap-fits"))
                .to(TopicCatalog.FITS, Produced.with(Serdes.String(), EventSerdes.capacityFit()).withName(SINK_FITS));
        derived.get(SPLIT_OUTPUT + "lateness")
                .mapValues(e -> generation.stamp(((DerivedEvent.Lateness) e).value()), Named.as("caplab-unwrap-lateness"))
                .to(TopicCatalog.LATENESS, Produced.with(Serdes.String(), EventSerdes.runLateness())
                        .withName(SINK_LATENESS));
        derived.get(SPLIT_OUTPUT + "conclusions")
                .mapValues(e -> generation.stamp(((DerivedEvent.Concluded) e).value()),
                        Named.as("caplab-unwrap-conclusions"))
                .to(TopicCatalog.CONCLUSIONS, Produced.with(Serdes.String(), EventSerdes.runConclusion())
                        .withName(SINK_CONCLUSIONS));
        derived.get(SPLIT_OUTPUT + "alerts")
                .mapValues(e -> ((DerivedEvent.Raised) e).value(), Named.as("caplab-unwrap-alerts"))
                .to(TopicCatalog.ALERTS, Produced.with(Serdes.String(), EventSerdes.alert()).withName(SINK_ALERTS));
        return builder;
    }
}
