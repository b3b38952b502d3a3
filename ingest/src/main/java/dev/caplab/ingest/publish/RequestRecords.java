package dev.caplab.ingest.publish;

import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.ingest.recipe.Recipes;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The Kafka records of one request, encoded before anything is sent: lifecycle events keyed by their run, samples
 * as SampleBatch records keyed by run and cut by {@link SampleChunks} below {@link IngestLimits#maxRecordBytes()}.
 * Handed whole to {@link TransactionalPublisher}, so a request is published atomically.
 */
public final class RequestRecords {

    private final IngestLimits limits;
    private final Instant receivedAt;
    private final List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
    private int samples;
    private int events;

    public RequestRecords(IngestLimits limits, Instant receivedAt) {
        this.limits = limits;
        this.receivedAt = receivedAt;
    }

    /** Adds lifecycle events, in order, to {@code caplab.runs}. */
    public RequestRecords lifecycle(List<SpecificRecord> lifecycleEvents) {
        for (SpecificRecord event : lifecycleEvents) {
            String runId = LifecyclePublisher.runIdOf(event);
            records.add(new ProducerRecord<>(TopicCatalog.RUNS, runId,
                    EventSerdes.lifecycle().serialize(TopicCatalog.RUNS, event)));
            events++;
        }
        return this;
    }

    /**
     * Adds every run's samples to {@code caplab.samples}, in input order within each run, followed by the series the
     * exporter recipes derive from them ({@link SampleBatches}).
     */
    public RequestRecords samples(RoutedSamples routed, String adapter) {
        for (Map.Entry<String, List<Sample>> run : routed.samplesByRun().entrySet()) {
            for (SampleBatch batch : SampleBatches.of(run.getKey(), adapter, receivedAt, run.getValue(),
                    Recipes.DEFAULT, SampleChunks.MAX_SAMPLES, limits.maxRecordBytes())) {
                records.add(new ProducerRecord<>(TopicCatalog.SAMPLES, run.getKey(),
                        EventSerdes.sampleBatch().serialize(TopicCatalog.SAMPLES, batch)));
                samples += batch.getSamples().size();
            }
        }
        return this;
    }

    public List<ProducerRecord<String, byte[]>> records() {
        return List.copyOf(records);
    }

    /** "1,500 samples and 2 lifecycle events in 3 records", for errors and logs. */
    public String describe() {
        return samples + " samples and " + events + " lifecycle events in " + records.size() + " records";
    }
}
