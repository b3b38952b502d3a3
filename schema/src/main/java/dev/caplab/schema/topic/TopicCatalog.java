package dev.caplab.schema.topic;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every topic caplab reads or writes. Names are constants shared by producers, the topology and tests.
 * All topics are keyed by run id, so lifecycle, samples and derived events of one run are co-partitioned.
 * Raw topics keep data forever: they are the truth every projection is rebuilt from.
 */
public final class TopicCatalog {

    public static final String RUNS = "caplab.runs";
    public static final String SAMPLES = "caplab.samples";
    public static final String STEP_AGGREGATES = "caplab.step-aggregates";
    public static final String VERDICTS = "caplab.verdicts";
    public static final String FITS = "caplab.fits";
    public static final String ALERTS = "caplab.alerts";
    public static final String LATENESS = "caplab.run-lateness";
    public static final String CONCLUSIONS = "caplab.conclusions";
    public static final String DEAD_LETTER = "caplab.dead-letter";

    /**
     * Header on a step or run end in {@link #RUNS} saying that the same request put an empty SampleBatch of the run,
     * stamped like the end, in {@link #SAMPLES} after the run's samples: once the topology has read that mark, it has
     * read every sample sent before the end, however far ahead it read the runs partition.
     */
    public static final String SAMPLES_MARK_HEADER = "caplab-samples-mark";

    /** Partition count of every run-keyed topic; co-partitioning requires them to be equal. */
    public static final int RUN_PARTITIONS = 6;

    // min.insync.replicas follows the replication factor a deployment chooses, so the provisioner sets it.
    private static final Map<String, String> FOREVER = Map.of(
            "retention.ms", "-1",
            "retention.bytes", "-1");
    private static final Map<String, String> THIRTY_DAYS = Map.of(
            "retention.ms", String.valueOf(30L * 24 * 3600 * 1000));

    private static final List<TopicSpec> ALL = List.of(
            new TopicSpec(RUNS, RUN_PARTITIONS, FOREVER,
                    "lifecycle: RunStarted, StepStarted, StepEnded, RunEnded, Annotation"),
            new TopicSpec(SAMPLES, RUN_PARTITIONS, FOREVER, "raw SampleBatch from every adapter"),
            // Derived records are keyed by run id (co-partitioned with the input), so compaction would keep one record
            // per run and a sink replaying these topics would lose the rest; they are small, so they are kept whole.
            new TopicSpec(STEP_AGGREGATES, RUN_PARTITIONS, FOREVER, "derived StepAggregate, every revision"),
            new TopicSpec(VERDICTS, RUN_PARTITIONS, FOREVER, "derived StepVerdict, every revision"),
            new TopicSpec(FITS, RUN_PARTITIONS, FOREVER, "derived CapacityFit, every refit"),
            new TopicSpec(LATENESS, RUN_PARTITIONS, FOREVER, "derived RunLateness: late and beyond-lateness sample counts, every revision"),
            new TopicSpec(CONCLUSIONS, RUN_PARTITIONS, FOREVER, "derived RunConclusion: the run's one decision, every revision"),
            new TopicSpec(ALERTS, RUN_PARTITIONS, THIRTY_DAYS, "step failures and cliffs while a test runs"),
            new TopicSpec(DEAD_LETTER, 1, THIRTY_DAYS, "undecodable input with the reason, for operators"));

    private TopicCatalog() {
    }

    /** All topics, raw first. */
    public static List<TopicSpec> all() {
        return ALL;
    }

    /** The spec of a topic by name. */
    public static Optional<TopicSpec> byName(String name) {
        return ALL.stream().filter(t -> t.name().equals(name)).findFirst();
    }
}
