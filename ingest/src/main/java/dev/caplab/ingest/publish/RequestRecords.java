package dev.caplab.ingest.publish;

import dev.caplab.ingest.parse.IngestLimits;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.topic.TopicCatalog;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * The Kafka records of one request, encoded before anything is sent: lifecycle events keyed by their run, samples
 * as SampleBatch records keyed by run and cut by {@link SampleChunks} below {@link IngestLimits#maxRecordBytes()}.
 * Handed whole to {@link TransactionalPublisher}, so a request is published atomically.
 *
 * <p>Lifecycle events keep the request's order. Every record is stamped with the request's arrival, except that the
 * events ending something ({@code StepEnded}, {@code RunEnded}) are stamped a millisecond later, and each run they end
 * gets a samples mark ({@link TopicCatalog#SAMPLES_MARK_HEADER}): an empty SampleBatch in the samples topic after the
 * run's samples, stamped like the ends, which carry the header. Kafka Streams merges the two topics in timestamp
 * order only among the records it has fetched, and under load it reads the runs partition seconds ahead of the
 * samples partition: a run's end can be read before the samples sent with it, and the run would close its steps on
 * nothing. The mark tells the topology when those samples have been read.
 */
public final class RequestRecords {

    /** The adapter named on a samples mark. */
    public static final String SAMPLES_MARK_ADAPTER = "samples-mark";

    private final IngestLimits limits;
    private final Instant receivedAt;
    private final List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
    private final List<ProducerRecord<String, byte[]>> marks = new ArrayList<>();
    private final Set<String> marked = new LinkedHashSet<>();
    private int samples;
    private int events;

    public RequestRecords(IngestLimits limits, Instant receivedAt) {
        this.limits = limits;
        this.receivedAt = receivedAt;
    }

    /** Adds lifecycle events, in order, to {@code caplab.runs}; a run they end gets its samples mark. */
    public RequestRecords lifecycle(List<SpecificRecord> lifecycleEvents) {
        for (SpecificRecord event : lifecycleEvents) {
            String runId = LifecyclePublisher.runIdOf(event);
            byte[] value = EventSerdes.lifecycle().serialize(TopicCatalog.RUNS, event);
            if (event instanceof StepEnded || event instanceof RunEnded) {
                records.add(new ProducerRecord<>(TopicCatalog.RUNS, null, endsStamp(), runId, value,
                        List.of(new RecordHeader(TopicCatalog.SAMPLES_MARK_HEADER, new byte[0]))));
                if (marked.add(runId)) {
                    marks.add(new ProducerRecord<>(TopicCatalog.SAMPLES, null, endsStamp(), runId,
                            EventSerdes.sampleBatch().serialize(TopicCatalog.SAMPLES,
                                    new SampleBatch(runId, SAMPLES_MARK_ADAPTER, receivedAt, List.of()))));
                }
            } else {
                records.add(new ProducerRecord<>(TopicCatalog.RUNS, null, receivedStamp(), runId, value));
            }
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
                    SampleBatches.EXPORTER_RECIPES, SampleChunks.MAX_SAMPLES, limits.maxRecordBytes())) {
                records.add(new ProducerRecord<>(TopicCatalog.SAMPLES, null, receivedStamp(), run.getKey(),
                        EventSerdes.sampleBatch().serialize(TopicCatalog.SAMPLES, batch)));
                samples += batch.getSamples().size();
            }
        }
        return this;
    }

    /** The request's records in the order they are sent: lifecycle events, samples, then the samples marks. */
    public List<ProducerRecord<String, byte[]>> records() {
        List<ProducerRecord<String, byte[]>> all = new ArrayList<>(records.size() + marks.size());
        all.addAll(records);
        all.addAll(marks);
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
        return samples + " samples and " + events + " lifecycle events in " + (records.size() + marks.size())
                + " records";
    }
}
