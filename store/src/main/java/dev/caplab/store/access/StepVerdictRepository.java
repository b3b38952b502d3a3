package dev.caplab.store.access;

import dev.caplab.schema.event.StepVerdict;
import dev.caplab.store.schema.Table;
import javax.sql.DataSource;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * Pass/fail verdicts per step, the schema's StepVerdict as streams emits it; the highest version per (run, step) wins.
 */
public final class StepVerdictRepository extends RunScopedRepository<StepVerdict> {

    static final RowCodec<StepVerdict> CODEC = RowCodec.derived(Table.STEP_VERDICTS.sqlName(), StepVerdict.class, true,
            AvroStorage.asNamed());

    public StepVerdictRepository(DataSource dataSource) {
        this(dataSource, (EngineInserts) null);
    }

    /** Reads through {@code dataSource}; inserts straight into the in-process engine when {@code direct} is set. */
    public StepVerdictRepository(DataSource dataSource, EngineInserts direct) {
        super(dataSource, CODEC, "step_index", direct);
    }

    /** Reads through {@code dataSource}, a run's rows once per {@code reads} scope. */
    public StepVerdictRepository(DataSource dataSource, ReadScope reads) {
        super(dataSource, CODEC, "step_index", null, reads);
    }

    /**
     * The run's verdicts, newest per step, without the steps withdrawn since (FINAL collapses first, then the filter
     * applies: ClickHouse does not move a FINAL query's WHERE before the merge).
     */
    @Override
    public List<StepVerdict> ofRun(String runId) {
        return reads.once(access.table(), List.of(runId),
                () -> List.copyOf(access.select("run_id = ?" + STILL_A_STEP, "step_index", runId)));
    }

    /** {@link #ofRun} for every run of {@code runIds} in one query, by run id and step. */
    @Override
    public List<StepVerdict> ofRuns(Collection<String> runIds) {
        List<String> distinct = runIds.stream().distinct().toList();
        if (distinct.isEmpty()) {
            return List.of();
        }
        return access.select("run_id IN (" + String.join(", ", Collections.nCopies(distinct.size(), "?")) + ")"
                + STILL_A_STEP, "run_id, step_index", distinct.toArray());
    }

    private static final String STILL_A_STEP = " AND NOT withdrawn";
}
