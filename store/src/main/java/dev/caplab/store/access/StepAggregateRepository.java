package dev.caplab.store.access;

import dev.caplab.schema.event.StepAggregate;

import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.store.schema.Table;
import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Per-step statistics written by streams; the highest version per (run, step, metric, source) wins. */
public final class StepAggregateRepository extends RunScopedRepository<StepAggregate> {

    static final RowCodec<StepAggregate> CODEC = RowCodec.derived(Table.STEP_AGGREGATES.sqlName(),
            StepAggregate.class, true, AvroStorage.asNamed().column("count", "sample_count").column("sum", "value_sum")
                    .column("min", "value_min").column("max", "value_max").column("mean", "value_mean"));

    /**
     * A window's (step's, baseline's) rows are those of its newest revision: streams emits every series of a window
     * at each revision, so a series missing from the newest one no longer belongs to it (its samples arrived in
     * another order and the window moved); a window emptied since says so with {@link MetricNames#EMPTY_WINDOW}.
     */
    private static String newestRevision(int runs) {
        return " AND metric != '" + MetricNames.EMPTY_WINDOW + "'"
                + " AND (run_id, step_index, version) IN (SELECT run_id, step_index, max(version) FROM "
                + Table.STEP_AGGREGATES.sqlName() + " WHERE run_id IN (" + Params.placeholders(runs) + ")"
                + " GROUP BY run_id, step_index)";
    }

    private static final String NEWEST_REVISION = newestRevision(1);

    public StepAggregateRepository(DataSource dataSource) {
        this(dataSource, (EngineInserts) null);
    }

    /** Reads through {@code dataSource}; inserts straight into the in-process engine when {@code direct} is set. */
    public StepAggregateRepository(DataSource dataSource, EngineInserts direct) {
        super(dataSource, CODEC, "step_index, metric, source", direct);
    }

    /** Reads through {@code dataSource}, a run's rows once per {@code reads} scope. */
    public StepAggregateRepository(DataSource dataSource, ReadScope reads) {
        super(dataSource, CODEC, "step_index, metric, source", null, reads);
    }

    /** A run's aggregates of its windows' newest revisions, by step, metric and source. */
    @Override
    public List<StepAggregate> ofRun(String runId) {
        return ofRun(runId, Optional.empty(), Optional.empty());
    }

    /** The aggregates of every run of {@code runIds} in one query, each window at its newest revision. */
    @Override
    public List<StepAggregate> ofRuns(Collection<String> runIds) {
        List<String> distinct = runIds.stream().distinct().toList();
        if (distinct.isEmpty()) {
            return List.of();
        }
        List<Object> values = new ArrayList<>(distinct);
        values.addAll(distinct);
        return access.select("run_id IN (" + Params.placeholders(distinct.size()) + ")"
                + newestRevision(distinct.size()),
                "run_id, step_index, metric, source", values.toArray());
    }

    /** One metric's aggregates over all steps of a run, the series a fit is drawn from. */
    public List<StepAggregate> ofRun(String runId, String metric) {
        return access.select("run_id = ? AND metric = ?" + NEWEST_REVISION, "step_index, source", runId, metric,
                runId);
    }

    /**
     * A run's aggregates of one metric and/or one source (empty or an empty string: any), by step, metric and
     * source; once per scope, and taken from the run's full read when the scope made it.
     */
    public List<StepAggregate> ofRun(String runId, Optional<String> metric, Optional<String> source) {
        Optional<String> m = metric.filter(v -> !v.isEmpty());
        Optional<String> s = source.filter(v -> !v.isEmpty());
        List<StepAggregate> all = reads.kept(access.table(), List.of(runId, Optional.empty(), Optional.empty()));
        if (all != null) {
            // the same rows in the same order as the filtered read
            return all.stream().filter(a -> m.map(a.getMetric()::equals).orElse(true)
                    && s.map(a.getSource()::equals).orElse(true)).toList();
        }
        return reads.once(access.table(), List.of(runId, m, s), () -> List.copyOf(read(runId, m, s)));
    }

    private List<StepAggregate> read(String runId, Optional<String> metric, Optional<String> source) {
        List<Object> values = new ArrayList<>(List.of(runId));
        StringBuilder where = new StringBuilder("run_id = ?");
        metric.ifPresent(m -> {
            where.append(" AND metric = ?");
            values.add(m);
        });
        source.ifPresent(s -> {
            where.append(" AND source = ?");
            values.add(s);
        });
        values.add(runId);
        return access.select(where + NEWEST_REVISION, "step_index, metric, source", values.toArray());
    }
}
