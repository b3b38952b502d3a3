package dev.caplab.store.access;

import dev.caplab.store.row.StepRow;

import dev.caplab.store.schema.Table;
import javax.sql.DataSource;
import java.time.Instant;
import java.util.List;

/** Steps of runs, from StepStarted/StepEnded. */
public final class StepRepository extends RunScopedRepository<StepRow> {

    private static final List<String> COLUMNS = List.of("run_id", "step_index", "load", "started_at",
            "warmup_micros", "ended_at", "version");

    private static final RowCodec<StepRow> CODEC = new RowCodec<>(Table.STEPS.sqlName(), COLUMNS, true,
            (p, r) -> p.addAll(r.runId(), r.stepIndex(), r.load(), r.startedAt(), r.warmupMicros(), r.endedAt(),
                    r.version()),
            rs -> {
                Fields f = new Fields(rs);
                return new StepRow(f.string(), f.int32(), f.doubleMap(), f.instant(), f.int64(), f.instant(),
                        f.int64());
            });

    public StepRepository(DataSource dataSource) {
        this(dataSource, null);
    }

    /** Reads through {@code dataSource}; inserts straight into the in-process engine when {@code direct} is set. */
    public StepRepository(DataSource dataSource, EngineInserts direct) {
        super(dataSource, CODEC, "step_index", direct);
    }

    /** Records StepEnded as a new version of the step's latest row, copied inside ClickHouse. */
    public void markEnded(String runId, int stepIndex, Instant endedAt, long version) {
        access.update("INSERT INTO " + access.table() + " (" + String.join(", ", COLUMNS) + ") SELECT run_id,"
                + " step_index, load, started_at, warmup_micros, ?, ? FROM " + access.table()
                + " FINAL WHERE run_id = ? AND step_index = ?"
                + " AND version < ?", endedAt, version, runId, stepIndex, version);
    }
}
