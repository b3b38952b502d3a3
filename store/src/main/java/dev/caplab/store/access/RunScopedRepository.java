package dev.caplab.store.access;

import javax.sql.DataSource;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/** What every per-run table offers: idempotent batch inserts and the run's rows, latest versions only. */
public abstract class RunScopedRepository<T> {

    final TableAccess<T> access;
    /** Where a run's rows read by {@link #ofRun(String)} are kept: once per scope. */
    final ReadScope reads;
    private final String orderBy;

    RunScopedRepository(DataSource dataSource, RowCodec<T> codec, String orderBy) {
        this(dataSource, codec, orderBy, null);
    }

    RunScopedRepository(DataSource dataSource, RowCodec<T> codec, String orderBy, EngineInserts direct) {
        this(dataSource, codec, orderBy, direct, ReadScope.NONE);
    }

    RunScopedRepository(DataSource dataSource, RowCodec<T> codec, String orderBy, EngineInserts direct,
            ReadScope reads) {
        this.access = new TableAccess<>(dataSource, codec, direct);
        this.orderBy = orderBy;
        this.reads = reads;
    }

    /** Inserts one batch; the same {@code dedupToken} again (a re-delivery) inserts nothing. Null: no token. */
    public int insertBatch(List<T> rows, String dedupToken) {
        return access.insertBatch(rows, dedupToken);
    }

    /** All rows of a run, collapsed to their highest version, in the table's natural order; once per scope. */
    public List<T> ofRun(String runId) {
        return reads.once(access.table(), List.of(runId), () -> List.copyOf(access.select("run_id = ?", orderBy,
                runId)));
    }

    /**
     * The rows of every run of {@code runIds} in one query (a cohort's, instead of one query per run), collapsed to
     * their highest version, by run id and then the table's natural order; unknown runs have none.
     */
    public List<T> ofRuns(Collection<String> runIds) {
        List<String> distinct = runIds.stream().distinct().toList();
        if (distinct.isEmpty()) {
            return List.of();
        }
        return access.select("run_id IN (" + String.join(", ", Collections.nCopies(distinct.size(), "?")) + ")",
                "run_id, " + orderBy, distinct.toArray());
    }
}
