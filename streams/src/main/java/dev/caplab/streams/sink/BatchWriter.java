package dev.caplab.streams.sink;

import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.serde.UndecodableEventException;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.store.access.AlertRepository;
import dev.caplab.store.access.AnnotationRepository;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.access.SampleRepository;
import dev.caplab.store.access.StepAggregateRepository;
import dev.caplab.store.access.StepRepository;
import dev.caplab.store.access.StepVerdictRepository;
import dev.caplab.store.row.AnnotationRow;
import dev.caplab.store.row.RunRow;
import dev.caplab.store.row.SampleRow;
import dev.caplab.store.row.StepRow;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one batch of one topic-partition to its tables, each insert carrying the batch's deterministic dedup token.
 * Lifecycle end events update rows by version (their Kafka offset), which is idempotent too.
 */
final class BatchWriter {

    private static final Logger LOG = LoggerFactory.getLogger(BatchWriter.class);

    private final SampleRepository samples;
    private final RunRepository runs;
    private final StepRepository steps;
    private final AnnotationRepository annotations;
    private final StepAggregateRepository aggregates;
    private final StepVerdictRepository verdicts;
    private final CapacityFitRepository fits;
    private final AlertRepository alerts;
    private long undecodable;

    BatchWriter(DataSource ds) {
        samples = new SampleRepository(ds);
        runs = new RunRepository(ds);
        steps = new StepRepository(ds);
        annotations = new AnnotationRepository(ds);
        aggregates = new StepAggregateRepository(ds);
        verdicts = new StepVerdictRepository(ds);
        fits = new CapacityFitRepository(ds);
        alerts = new AlertRepository(ds);
    }

    /** Records skipped because they could not be decoded (the streams app dead-letters the raw ones). */
    long undecodable() {
        return undecodable;
    }

    /** Writes the batch; returns the number of rows written. */
    int write(BatchIntent intent, List<ConsumerRecord<String, byte[]>> records) {
        return switch (intent.topic()) {
            case TopicCatalog.SAMPLES -> {
                List<SampleRow> rows = new ArrayList<>();
                decode(records, EventSerdes.sampleBatch()::deserialize).forEach(b -> rows.addAll(
                        RowMapping.samples(b)));
                yield samples.insertBatch(rows, intent.token("samples"));
            }
            case TopicCatalog.RUNS -> writeLifecycle(intent, records);
            case TopicCatalog.STEP_AGGREGATES -> aggregates.insertBatch(decode(records,
                    EventSerdes.stepAggregate()::deserialize).stream().map(RowMapping::aggregate).toList(),
                    intent.token("step_aggregates"));
            case TopicCatalog.VERDICTS -> verdicts.insertBatch(decode(records, EventSerdes.stepVerdict()::deserialize)
                    .stream().map(RowMapping::verdict).toList(), intent.token("step_verdicts"));
            case TopicCatalog.FITS -> fits.insertBatch(decode(records, EventSerdes.capacityFit()::deserialize)
                    .stream().map(RowMapping::fit).toList(), intent.token("capacity_fits"));
            case TopicCatalog.ALERTS -> alerts.insertBatch(decode(records, EventSerdes.alert()::deserialize)
                    .stream().map(RowMapping::alert).toList(), intent.token("alerts"));
            default -> throw new IllegalArgumentException("the sink has no table for topic " + intent.topic());
        };
    }

    private int writeLifecycle(BatchIntent intent, List<ConsumerRecord<String, byte[]>> records) {
        List<RunRow> runRows = new ArrayList<>();
        List<StepRow> stepRows = new ArrayList<>();
        List<AnnotationRow> notes = new ArrayList<>();
        List<Runnable> ends = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            SpecificRecord event = decodeOne(r, EventSerdes.lifecycle()::deserialize);
            long version = r.offset() + 1; // offsets are monotonic per run (one partition): a valid version
            switch (event) {
                case null -> {
                }
                case RunStarted s -> runRows.add(RowMapping.run(s, version));
                case StepStarted s -> stepRows.add(RowMapping.step(s, version));
                case StepEnded e -> ends.add(() -> steps.markEnded(e.getRunId().toString(), e.getStepIndex(),
                        e.getEndedAt(), version));
                case RunEnded e -> ends.add(() -> runs.markEnded(e.getRunId().toString(), e.getEndedAt(),
                        e.getStatus().name(), e.getReason() == null ? null : e.getReason().toString(), version));
                case Annotation a -> notes.add(RowMapping.annotation(a));
                default -> throw new IllegalStateException("unexpected lifecycle event " + event.getClass());
            }
        }
        int n = runs.insertBatch(runRows, intent.token("runs")) + steps.insertBatch(stepRows, intent.token("steps"))
                + annotations.insertBatch(notes, intent.token("annotations"));
        ends.forEach(Runnable::run);
        return n + ends.size();
    }

    private <T> List<T> decode(List<ConsumerRecord<String, byte[]>> records, Decoder<T> decoder) {
        List<T> out = new ArrayList<>(records.size());
        for (ConsumerRecord<String, byte[]> r : records) {
            T value = decodeOne(r, decoder);
            if (value != null) {
                out.add(value);
            }
        }
        return out;
    }

    private <T> T decodeOne(ConsumerRecord<String, byte[]> r, Decoder<T> decoder) {
        try {
            return decoder.decode(r.topic(), r.value());
        } catch (UndecodableEventException e) {
            undecodable++;
            LOG.warn("sink skips {} (the streams app dead-letters raw poison pills)",
                    e.describeAt(r.partition(), r.offset()));
            return null;
        }
    }

    @FunctionalInterface
    interface Decoder<T> {
        T decode(String topic, byte[] bytes);
    }
}
