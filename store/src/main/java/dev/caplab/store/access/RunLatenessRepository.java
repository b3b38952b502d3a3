package dev.caplab.store.access;

import dev.caplab.schema.event.RunLateness;
import java.time.Instant;

import dev.caplab.store.schema.Table;
import javax.sql.DataSource;
import java.util.Optional;

/** Late and beyond-lateness sample counts per run written by streams; the highest version per run wins. */
public final class RunLatenessRepository extends RunScopedRepository<RunLateness> {

    static final RowCodec<RunLateness> CODEC = RowCodec.derived(Table.RUN_LATENESS.sqlName(), RunLateness.class, true);

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
    public Optional<RunLateness> find(String runId) {
        return ofRun(runId).stream().findFirst();
    }

    /** The run's counts, zero when nothing came late. */
    public RunLateness countsOf(String runId) {
        return find(runId).orElseGet(() -> RunLateness.newBuilder().setRunId(runId).setLateSamples(0)
                .setBeyondLatenessSamples(0).setUpdatedAt(Instant.EPOCH).build());
    }
}
