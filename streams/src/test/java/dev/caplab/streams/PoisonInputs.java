package dev.caplab.streams;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * Single inputs that used to stop processing for good (issue #11), as raw records written straight to the raw topics,
 * bypassing the ingest door; each with the run it belongs to and a fragment of the reason it must be rejected with.
 */
public final class PoisonInputs {

    /** 70,000 bytes: past {@code writeUTF}'s 65,535-byte limit that killed the topology. */
    public static final String HUGE = "x".repeat(70_000);
    /** The inferred-steps run: 200,000 {@code vus} samples, 5 levels of 40 s, 1 ms apart. */
    public static final String LEVELS_RUN = "poison-levels";
    public static final int LEVEL_SAMPLES = 200_000;
    public static final int LEVEL_STEPS = 5;

    /** One raw record: topic, key, value; {@code reason} is what its dead letter must say (null: not rejected). */
    public record Input(String topic, String key, byte[] value, String reason) {
    }

    private PoisonInputs() {
    }

    /** Every poison record, then the many-level run (which must be stepped, not rejected). */
    public static List<Input> all() {
        List<Input> out = new ArrayList<>();
        out.add(samples(" ", List.of(Events.gauge("host", "cpu.cores", 1, 1)), "blank or missing run id key"));
        out.add(lifecycle("", Events.runStarted("", "users", List.of(), 4), "blank or missing run id key"));
        out.add(samples("poison-blank-source", List.of(Events.gauge(" ", "cpu.cores", 1, 1)),
                "source: must not be blank"));
        out.add(samples("poison-blank-metric", List.of(Events.gauge("host", " ", 1, 1)),
                "metric: must not be blank"));
        out.add(samples("poison-long-label", List.of(Events.sample("host", "cpu.cores",
                dev.caplab.schema.event.SampleKind.GAUGE, 1, 1, Map.of(HUGE, HUGE))), "label key"));
        out.add(samples("poison-long-metric", List.of(Events.gauge("host", HUGE, 1, 1)), "metric"));
        out.add(new Input(TopicCatalog.SAMPLES, "poison-undecodable",
                "cpu,host=a value=1".getBytes(StandardCharsets.UTF_8), "no Avro single-object header"));
        out.addAll(levelsRun());
        return out;
    }

    /** The run whose every load-level sample the old state kept: over 4 MB of levels in one record. */
    public static List<Input> levelsRun() {
        List<Input> out = new ArrayList<>();
        out.add(lifecycle(LEVELS_RUN, Events.runStarted(LEVELS_RUN, "vus", List.of(), 4), null));
        int perBatch = 1000;
        for (int b = 0; b < LEVEL_SAMPLES / perBatch; b++) {
            List<Sample> batch = new ArrayList<>(perBatch + 1);
            for (int i = 0; i < perBatch; i++) {
                int n = b * perBatch + i;
                double seconds = 1 + n / 1000.0;
                batch.add(Events.gauge("k6", "vus", seconds, 10.0 * (1 + n / (LEVEL_SAMPLES / LEVEL_STEPS))));
            }
            batch.add(Events.gauge("host", "cpu.cores", 1 + b, 0.5));
            out.add(samples(LEVELS_RUN, batch, null));
        }
        out.add(lifecycle(LEVELS_RUN, Events.runEnded(LEVELS_RUN, 1 + LEVEL_SAMPLES / 1000.0), null));
        return out;
    }

    private static Input samples(String runId, List<Sample> samples, String reason) {
        return new Input(TopicCatalog.SAMPLES, runId, EventSerdes.sampleBatch().serialize(TopicCatalog.SAMPLES,
                Events.batch(runId, samples)), reason);
    }

    private static Input lifecycle(String runId, SpecificRecord event, String reason) {
        return new Input(TopicCatalog.RUNS, runId, EventSerdes.lifecycle().serialize(TopicCatalog.RUNS, event), reason);
    }
}
