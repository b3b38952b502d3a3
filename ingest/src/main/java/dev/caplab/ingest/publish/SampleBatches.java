package dev.caplab.ingest.publish;

import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.ingest.parse.SampleChecks;
import dev.caplab.recipes.Recipes;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The one point every ingest path's samples pass on their way to Kafka (HTTP receivers through
 * {@link RequestRecords}, files, the host sampler and the Prometheus scraper through {@link KafkaSampleSink}): a
 * run's samples become SampleBatch records here, after the exporter {@link Recipes} added their derived series
 * beside the raw ones, and cut by {@link SampleChunks}.
 */
public final class SampleBatches {

    /** The exporter recipes behind the door's checks at the default limits. */
    public static final Recipes EXPORTER_RECIPES = Recipes.exporters(
            new SampleChecks(IngestLimits.DEFAULTS)::admitsDerived);

    private SampleBatches() {
    }

    /** The batches of one run's samples plus the recipes' derived samples, in order, each within the given bounds. */
    public static List<SampleBatch> of(String runId, String adapter, Instant receivedAt, List<Sample> samples,
            Recipes recipes, int maxSamples, long maxBytes) {
        List<Sample> derived = recipes.derive(samples);
        List<Sample> all = samples;
        if (!derived.isEmpty()) {
            all = new ArrayList<>(samples.size() + derived.size());
            all.addAll(samples);
            all.addAll(derived);
        }
        List<SampleBatch> batches = new ArrayList<>();
        for (List<Sample> chunk : SampleChunks.of(all, maxSamples, maxBytes)) {
            batches.add(new SampleBatch(runId, adapter, receivedAt, chunk));
        }
        return batches;
    }
}
