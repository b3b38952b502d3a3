package dev.caplab.store.access;

import dev.caplab.schema.event.RunDeleted;
import dev.caplab.store.schema.Table;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Runs clients deleted, written from RunDeleted: the one place that says which runs are deleted. {@link RunRepository}
 * leaves them out of every read through {@link #NOT_DELETED}; this repository tells when a run was deleted, for the
 * answer that says so, which runs of a batch are deleted ({@link #deletedAmong}), and erases a deleted run's rows
 * from every other table ({@link #erase}), so SQL over the store no longer sees them either.
 */
public final class DeletedRunRepository extends RunScopedRepository<RunDeleted> {

    /** The condition on a runs row that keeps it visible: its run was never deleted. */
    static final String NOT_DELETED = "run_id NOT IN (SELECT run_id FROM " + Table.DELETED_RUNS.sqlName() + ")";

    /** Later than any time a row stores, so every version is positive. */
    private static final Instant AFTER_LATEST_STORABLE = Instant.parse("2300-01-01T00:00:00Z");

    static final RowCodec<RunDeleted> CODEC = RowCodec.derived(Table.DELETED_RUNS.sqlName(), RunDeleted.class, true)
            .withWrittenColumn("version", DeletedRunRepository::version);

    public DeletedRunRepository(DataSource dataSource) {
        this(dataSource, (EngineInserts) null);
    }

    /** Reads through {@code dataSource}; inserts straight into the in-process engine when {@code direct} is set. */
    public DeletedRunRepository(DataSource dataSource, EngineInserts direct) {
        super(dataSource, CODEC, "run_id", direct);
    }

    /** Reads through {@code dataSource}, a run's rows once per {@code reads} scope. */
    public DeletedRunRepository(DataSource dataSource, ReadScope reads) {
        super(dataSource, CODEC, "run_id", null, reads);
    }

    /** The run's deletion, empty when it was never deleted. */
    public Optional<RunDeleted> find(String runId) {
        return ofRun(runId).stream().findFirst();
    }

    /** The runs of {@code runIds} that were deleted; one query, none for no run. */
    public Set<String> deletedAmong(Collection<String> runIds) {
        List<String> distinct = runIds.stream().distinct().toList();
        if (distinct.isEmpty()) {
            return Set.of();
        }
        return Set.copyOf(access.query("SELECT DISTINCT run_id FROM " + access.table() + " WHERE run_id IN ("
                + Params.placeholders(distinct.size()) + ")", rs -> rs.getString(1), distinct.toArray()));
    }

    /**
     * Erases every row of {@code runIds} (runs that were deleted) from each table with a run_id column but this one,
     * which keeps the record of their deletion; returns the tables erased from (none for no run). See
     * {@link RunErasure} for which tables and how.
     */
    public List<String> erase(Collection<String> runIds) {
        return RunErasure.erase(access.dataSource(), runIds);
    }

    /** The earliest deletion ranks highest, so a repeated delete never moves the time a run was deleted at. */
    private static long version(RunDeleted row) {
        return ChronoUnit.MICROS.between(row.getDeletedAt(), AFTER_LATEST_STORABLE);
    }
}
