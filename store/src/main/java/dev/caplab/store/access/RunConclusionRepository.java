package dev.caplab.store.access;

import dev.caplab.store.schema.Table;
import dev.caplab.store.row.RunConclusionRow;

import javax.sql.DataSource;
import java.util.Optional;

/** The run conclusion written by streams, one per run; the highest version (latest revision) wins. */
public final class RunConclusionRepository extends RunScopedRepository<RunConclusionRow> {

    static final RowCodec<RunConclusionRow> CODEC = RowCodec.derived(Table.RUN_CONCLUSIONS.sqlName(),
            RunConclusionRow.class, true);

    public RunConclusionRepository(DataSource dataSource) {
        this(dataSource, (EngineInserts) null);
    }

    /** Reads through {@code dataSource}; inserts straight into the in-process engine when {@code direct} is set. */
    public RunConclusionRepository(DataSource dataSource, EngineInserts direct) {
        super(dataSource, CODEC, "run_id", direct);
    }

    /** Reads through {@code dataSource}, a run's rows once per {@code reads} scope. */
    public RunConclusionRepository(DataSource dataSource, ReadScope reads) {
        super(dataSource, CODEC, "run_id", null, reads);
    }

    /** The run's newest conclusion; empty while no step of it has closed. */
    public Optional<RunConclusionRow> latest(String runId) {
        return ofRun(runId).stream().findFirst();
    }
}
