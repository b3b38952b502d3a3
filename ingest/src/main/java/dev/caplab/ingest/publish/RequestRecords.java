package dev.caplab.ingest.publish;

import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.ingest.recipe.Recipes;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.event.StepEnded;
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
 *
 * <p>Every record is stamped with the request's arrival, except that the events ending something ({@code StepEnded},
 * {@code RunEnded}) come after the request's samples and are stamped a millisecond later. Kafka Streams reads the
 * lifecycle and samples topics of a run in timestamp order; with the producer's own send times, a request carrying
 * both a run's samples and its end ({@code allSamplesSent}) could have the end read first whenever the two fell in
 * the same millisecond or the end was sent first, and the run closed its steps on nothing. Under load, with the
 * samples topic behind, that happened to 1,024 of 2,665 runs (issue 33).
 */
public final class RequestRecords {

    private final IngestLimits limits;
    private final Instant receivedAt;
    private final List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
    private final List<ProducerRecord<String, byte[]>> ends = new ArrayList<>();
    private int samples;
    private int events;

    public RequestRecords(IngestLimits limits, Instant receivedAt) {
        this.limits = limits;
        this.receivedAt = receivedAt;
    }

    /**
     * Adds lifecycle events, in order, to {@code caplab.runs}: the ones ending a step or a run after every sample of
     * the request, the others before.
     */
    public RequestRecords lifecycle(List<SpecificRecord> lifecycleEvents) {
        for (SpecificRecord event : lifecycleEvents) {
            boolean end = event instanceof StepEnded || event instanceof RunEnded;
            (end ? ends : records).add(new ProducerRecord<>(TopicCatalog.RUNS, null,
                    end ? endsStamp() : receivedStamp(), LifecyclePublisher.runIdOf(event),
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
                records.add(new ProducerRecord<>(TopicCatalog.SAMPLES, null, receivedStamp(), run.getKey(),
                        EventSerdes.sampleBatch().serialize(TopicCatalog.SAMPLES, batch)));
                samples += batch.getSamples().size();
            }
        }
        return this;
    }

    /** The request's records in the order they are sent: starts and samples, then ends. */
    public List<ProducerRecord<String, byte[]>> records() {
        List<ProducerRecord<String, byte[]>> all = new ArrayList<>(records.size() + ends.size());
        all.addAll(records);
        all.addAll(ends);
        return all;
    }

    private long receivedStamp() {
        return receivedAt.toEpochMilli();
    }

    private long endsStamp() {
        return receivedAt.toEpochMilli() + 1;
    }

    /** "1,500 samples and 2 lifecycle events in 3 records", for errors and logs. */
    public String describe() {
        return samples + " samples and " + events + " lifecycle events in " + (records.size() + ends.size())
                + " records";
    }
}
