package dev.caplab.store.access;

import dev.caplab.store.row.RunLatenessRow;

import dev.caplab.store.schema.Table;
import javax.sql.DataSource;
import java.util.Optional;

/** Late and beyond-lateness sample counts per run written by streams; the highest version per run wins. */
public final class RunLatenessRepository extends RunScopedRepository<RunLatenessRow> {

    static final RowCodec<RunLatenessRow> CODEC = RowCodec.derived(Table.RUN_LATENESS.sqlName(), RunLatenessRow.class, true);

    public RunLatenessRepository(DataSource dataSource) {
        this(dataSource, (EngineInserts) null);
    }

    /** Reads through {@code dataSource}; inserts straight into the in-process engine when {@code direct} is set. */
    public RunLatenessRepository(DataSource dataSource, EngineInserts direct) {
        super(dataSource, CODEC, "run_id", direct);
    }

    /** Reads through {@code dataSource}, a run's rows once per {@code reads} scope. */
    public RunLatenessRepository(DataSource dataSource, ReadScope reads) {
        super(dataSource, CODEC, "run_id", null, reads);
    }

    /** The run's counts, cumulative, so the latest version is the whole story; empty if nothing came late. */
    public Optional<RunLatenessRow> find(String runId) {
        return ofRun(runId).stream().findFirst();
    }
}
