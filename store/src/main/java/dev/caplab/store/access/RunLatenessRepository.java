package dev.caplab.store.access;

import dev.caplab.store.row.RunLatenessRow;

import dev.caplab.store.schema.Table;
import javax.sql.DataSource;
import java.util.List;
import java.util.Optional;

/** Late and beyond-lateness sample counts per run written by streams; the highest version per run wins. */
public final class RunLatenessRepository extends RunScopedRepository<RunLatenessRow> {

    private static final RowCodec<RunLatenessRow> CODEC = new RowCodec<>(Table.RUN_LATENESS.sqlName(),
            List.of("run_id", "late_samples", "beyond_lateness_samples", "updated_at", "version"), true,
            (p, r) -> p.addAll(r.runId(), r.lateSamples(), r.beyondLatenessSamples(), r.updatedAt(), r.version()),
            rs -> {
                Fields f = new Fields(rs);
                return new RunLatenessRow(f.string(), f.int64(), f.int64(), f.instant(), f.int64());
            });

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
