package dev.caplab.sink;

import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.Annotation;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunDeleted;
import dev.caplab.schema.event.RunEnded;
import dev.caplab.schema.event.RunLateness;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.event.StepAggregate;
import dev.caplab.schema.event.StepEnded;
import dev.caplab.schema.event.StepStarted;
import dev.caplab.schema.event.StepVerdict;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.serde.UndecodableEventException;
import dev.caplab.schema.topic.TopicCatalog;
import dev.caplab.store.access.AlertRepository;
import dev.caplab.store.access.AnnotationRepository;
import dev.caplab.store.access.DeletedRunRepository;
import dev.caplab.store.access.CapacityFitRepository;
import dev.caplab.store.access.EngineInserts;
import dev.caplab.store.access.RunConclusionRepository;
import dev.caplab.store.access.RunLatenessRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.access.SampleRepository;
import dev.caplab.store.access.StepAggregateRepository;
import dev.caplab.store.access.StepRepository;
import dev.caplab.store.access.StepVerdictRepository;
import dev.caplab.store.access.StoreQueryException;
import dev.caplab.store.access.StoreUnavailableException;
import dev.caplab.store.row.RunScopedRow;
import dev.caplab.store.row.SampleRow;
import dev.caplab.store.schema.Table;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import javax.sql.DataSource;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one batch of one topic-partition to its tables, each insert carrying the batch's deterministic dedup token.
 * Lifecycle end events update rows by version (their Kafka offset), which is idempotent too.
 *
 * <p>Raw samples are stored sample by sample: those without the shape a sample may have (or a time ClickHouse cannot
 * store) are set aside, the valid ones of the same batch stored ({@link SampleRows}).
 *
 * <p>A record that can never be stored (a row check fails, e.g. a blank run id, or ClickHouse rejects its data) is
 * isolated: rows are mapped per record, and when ClickHouse refuses the batch it is written again one record per
 * insert (each with its own offset's token, so a re-formed batch after a crash deduplicates the same way); the
 * records refused are handed to {@link SinkRejections} and the rest stored. Transport failures
 * ({@link StoreUnavailableException}) are not rejections: they propagate, and the sink retries the batch.
 *
 * <p>Nothing of a deleted run is stored but its deletion: its records and rows are left out, and a run deleted while
 * the batch was written is erased from every table afterwards ({@link DeletedRunGuard}).
 */
final class BatchWriter {

    private static final Logger LOG = LoggerFactory.getLogger(BatchWriter.class);

    private final SampleRepository samples;
    private final RunRepository runs;
    private final StepRepository steps;
    private final AnnotationRepository annotations;
    private final DeletedRunRepository deletions;
    private final StepAggregateRepository aggregates;
    private final StepVerdictRepository verdicts;
    private final CapacityFitRepository fits;
    private final AlertRepository alerts;
    private final RunLatenessRepository lateness;
    private final RunConclusionRepository conclusions;
    private final SinkRejections rejections;
    private final SampleRows sampleRows = new SampleRows();
    private long undecodable;

    /** Writes through {@code ds}; inserts straight into the in-process engine when {@code direct} is set. */
    BatchWriter(DataSource ds, EngineInserts direct, SinkRejections rejections) {
        samples = new SampleRepository(ds, direct);
        runs = new RunRepository(ds, direct);
        steps = new StepRepository(ds, direct);
        annotations = new AnnotationRepository(ds, direct);
        deletions = new DeletedRunRepository(ds, direct);
        aggregates = new StepAggregateRepository(ds, direct);
        verdicts = new StepVerdictRepository(ds, direct);
        fits = new CapacityFitRepository(ds, direct);
        alerts = new AlertRepository(ds, direct);
        lateness = new RunLatenessRepository(ds, direct);
        conclusions = new RunConclusionRepository(ds, direct);
        this.rejections = rejections;
    }

    /** Records skipped because they could not be decoded (the streams app dead-letters the raw ones). */
    long undecodable() {
        return undecodable;
    }

    /**
     * Writes the batch; returns the number of rows written. {@code rewrite}: it may have been written before (re-formed
     * from a previous owner's intent, or retried after a failure).
     */
    int write(BatchIntent intent, List<ConsumerRecord<String, byte[]>> records, boolean rewrite) {
        DeletedRunGuard deleted = new DeletedRunGuard(deletions, records);
        int n = write(intent, records, deleted);
        long asked = System.nanoTime();
        Set<String> erased = deleted.eraseLate(rewrite);
        if (!erased.isEmpty()) {
            LOG.info("sink erased the rows of runs {}, deleted while {} was written, in {} ms", erased, intent,
                    (System.nanoTime() - asked) / 1_000_000);
        }
        return n;
    }

    private int write(BatchIntent intent, List<ConsumerRecord<String, byte[]>> records, DeletedRunGuard deleted) {
        return switch (intent.topic()) {
            case TopicCatalog.SAMPLES -> insert(intent, records, deleted, Table.SAMPLES, samples::insertBatch,
                    this::sampleRows);
            case TopicCatalog.RUNS -> writeLifecycle(intent, records, deleted);
            case TopicCatalog.STEP_AGGREGATES -> insert(intent, records, deleted, Table.STEP_AGGREGATES,
                    aggregates::insertBatch,
                    r -> List.of(RowMapping.aggregate(EventSerdes.stepAggregate().deserialize(r.topic(), r.value()))),
                    StepAggregate::getRunId);
            case TopicCatalog.VERDICTS -> insert(intent, records, deleted, Table.STEP_VERDICTS, verdicts::insertBatch,
                    r -> List.of(RowMapping.verdict(EventSerdes.stepVerdict().deserialize(r.topic(), r.value()))),
                    StepVerdict::getRunId);
            case TopicCatalog.FITS -> insert(intent, records, deleted, Table.CAPACITY_FITS, fits::insertBatch,
                    r -> List.of(RowMapping.fit(EventSerdes.capacityFit().deserialize(r.topic(), r.value()))),
                    CapacityFit::getRunId);
            case TopicCatalog.ALERTS -> insert(intent, records, deleted, Table.ALERTS, alerts::insertBatch,
                    r -> List.of(RowMapping.alert(EventSerdes.alert().deserialize(r.topic(), r.value()))),
                    Alert::getRunId);
            case TopicCatalog.CONCLUSIONS -> insert(intent, records, deleted, Table.RUN_CONCLUSIONS,
                    conclusions::insertBatch,
                    r -> List.of(RowMapping.conclusion(EventSerdes.runConclusion().deserialize(r.topic(), r.value()))),
                    RunConclusion::getRunId);
            case TopicCatalog.LATENESS -> insert(intent, records, deleted, Table.RUN_LATENESS, lateness::insertBatch,
                    r -> List.of(RowMapping.lateness(EventSerdes.runLateness().deserialize(r.topic(), r.value()))),
                    RunLateness::getRunId);
            default -> throw new IllegalArgumentException("the sink has no table for topic " + intent.topic());
        };
    }

    /** The rows of a batch's valid samples; the others are set aside (dead-lettered, their run alerted). */
    private List<SampleRow> sampleRows(ConsumerRecord<String, byte[]> r) {
        SampleRows.Split split = sampleRows.split(EventSerdes.sampleBatch().deserialize(r.topic(), r.value()));
        if (!split.setAside().isEmpty()) {
            rejections.reject(r, EventSerdes.sampleBatch().serialize(r.topic(), split.setAsideBatch()),
                    split.reason());
        }
        return split.rows();
    }

    private int writeLifecycle(BatchIntent intent, List<ConsumerRecord<String, byte[]>> records,
            DeletedRunGuard deleted) {
        Map<ConsumerRecord<String, byte[]>, SpecificRecord> events = new IdentityHashMap<>();
        List<ConsumerRecord<String, byte[]>> decoded = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            try {
                events.put(r, EventSerdes.lifecycle().deserialize(r.topic(), r.value()));
                decoded.add(r);
            } catch (UndecodableEventException e) {
                skipUndecodable(r, e);
            }
        }
        int n = insert(intent, decoded, deleted, Table.RUNS, runs::insertBatch,
                r -> events.get(r) instanceof RunStarted s ? List.of(RowMapping.run(s, r.offset() + 1)) : List.of())
                + insert(intent, decoded, deleted, Table.STEPS, steps::insertBatch,
                r -> events.get(r) instanceof StepStarted s ? List.of(RowMapping.step(s, r.offset() + 1)) : List.of())
                + insert(intent, decoded, deleted, Table.ANNOTATIONS, annotations::insertBatch,
                r -> events.get(r) instanceof Annotation a ? List.of(RowMapping.annotation(a)) : List.of(),
                Annotation::getRunId)
                + insert(intent, decoded, deleted, Table.DELETED_RUNS, deletions::insertBatch,
                r -> events.get(r) instanceof RunDeleted d ? List.of(RowMapping.deletion(d)) : List.of(),
                RunDeleted::getRunId);
        // every end of the batch in one statement per table; refused, they are recorded one by one to isolate it
        List<ConsumerRecord<String, byte[]>> ended = decoded.stream()
                .filter(r -> switch (events.get(r)) {
                    case StepEnded e -> !deleted.deleted(e.getRunId().toString());
                    case RunEnded e -> !deleted.deleted(e.getRunId().toString());
                    default -> false;
                }).toList();
        try {
            steps.markEndedAll(ended.stream().filter(r -> events.get(r) instanceof StepEnded)
                    .map(r -> stepEnd((StepEnded) events.get(r), r)).toList());
            runs.markEndedAll(ended.stream().filter(r -> events.get(r) instanceof RunEnded)
                    .map(r -> runEnd((RunEnded) events.get(r), r)).toList());
            return n + ended.size();
        } catch (StoreQueryException batchRefused) {
            LOG.warn("ClickHouse refused {} step and run ends at once ({}); recording them one by one to isolate it",
                    ended.size(), batchRefused.getMessage());
        }
        for (ConsumerRecord<String, byte[]> r : ended) {
            try {
                switch (events.get(r)) {
                    case StepEnded e -> steps.markEndedAll(List.of(stepEnd(e, r)));
                    case RunEnded e -> runs.markEndedAll(List.of(runEnd(e, r)));
                    default -> throw new IllegalStateException("not an end: " + events.get(r));
                }
                n++;
            } catch (StoreUnavailableException e) {
                throw e;
            } catch (RuntimeException e) {
                rejections.reject(r, "cannot store its end in ClickHouse: " + e.getMessage());
            }
        }
        return n;
    }

    // offsets are monotonic per run (one partition): a valid version
    private static StepRepository.StepEnd stepEnd(StepEnded e, ConsumerRecord<String, byte[]> r) {
        return new StepRepository.StepEnd(e.getRunId().toString(), e.getStepIndex(), e.getEndedAt(), r.offset() + 1);
    }

    private static RunRepository.RunEnd runEnd(RunEnded e, ConsumerRecord<String, byte[]> r) {
        return new RunRepository.RunEnd(e.getRunId().toString(), e.getEndedAt(), e.getStatus().name(),
                e.getReason() == null ? null : e.getReason().toString(), r.offset() + 1);
    }

    private void skipUndecodable(ConsumerRecord<String, byte[]> r, UndecodableEventException e) {
        undecodable++;
        LOG.warn("sink skips {} (the streams app dead-letters raw poison pills)", e.describeAt(r.partition(),
                r.offset()));
    }

    /**
     * Maps each record to its rows and inserts them as one batch under the batch's token; a record that cannot be
     * mapped, or that ClickHouse refuses when the batch is retried record by record, is rejected. Records keyed by a
     * deleted run, and rows of one, are left out, but in {@code deleted_runs}: a deletion is always stored.
     */
    private <T extends RunScopedRow> int insert(BatchIntent intent, List<ConsumerRecord<String, byte[]>> records,
            DeletedRunGuard deleted, Table table, Inserter<T> repository, RowsOf<T> rowsOf) {
        return insert(intent, records, deleted, table, repository, rowsOf, RunScopedRow::runId);
    }

    /** {@link #insert} of rows that are their events, each of the run {@code runIdOf} names. */
    private <T> int insert(BatchIntent intent, List<ConsumerRecord<String, byte[]>> records, DeletedRunGuard deleted,
            Table table, Inserter<T> repository, RowsOf<T> rowsOf, Function<? super T, String> runIdOf) {
        boolean deletions = table == Table.DELETED_RUNS;
        List<ConsumerRecord<String, byte[]>> kept = new ArrayList<>();
        List<List<T>> rowsPerRecord = new ArrayList<>();
        List<T> all = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            if (!deletions && deleted.deleted(r.key())) {
                continue;
            }
            List<T> rows;
            try {
                rows = rowsOf.rows(r);
            } catch (UndecodableEventException e) {
                skipUndecodable(r, e);
                continue;
            } catch (StoreUnavailableException e) {
                throw e;
            } catch (RuntimeException e) {
                rejections.reject(r, "cannot become a row of " + table + ": " + e.getMessage());
                continue;
            }
            if (deletions) {
                // asked about, so the run is erased once its deletion is stored
                rows.forEach(row -> deleted.deleted(runIdOf.apply(row)));
            } else {
                rows = deleted.withoutDeleted(rows, runIdOf);
            }
            if (!rows.isEmpty()) {
                kept.add(r);
                rowsPerRecord.add(rows);
                all.addAll(rows);
            }
        }
        try {
            return repository.insert(all, intent.token(table.sqlName()));
        } catch (StoreQueryException batchRefused) {
            LOG.warn("ClickHouse refused a batch of {} rows for {} ({}); inserting record by record to isolate it",
                    all.size(), table, batchRefused.getMessage());
            int n = 0;
            for (int i = 0; i < kept.size(); i++) {
                ConsumerRecord<String, byte[]> r = kept.get(i);
                try {
                    n += repository.insert(rowsPerRecord.get(i), BatchIntent.open(r.topic(), r.partition(),
                            r.offset(), r.offset(), r.offset(), r.offset() + 1).token(table.sqlName()));
                } catch (StoreQueryException e) {
                    rejections.reject(r, "ClickHouse refused its rows for " + table + ": " + e.getMessage());
                }
            }
            return n;
        }
    }

    /** A repository's batch insert with a dedup token. */
    @FunctionalInterface
    interface Inserter<T> {
        int insert(List<T> rows, String dedupToken);
    }

    /** The rows one record becomes in one table (none when it belongs to another table). */
    @FunctionalInterface
    interface RowsOf<T> {
        List<T> rows(ConsumerRecord<String, byte[]> record);
    }
}
