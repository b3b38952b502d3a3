package dev.caplab.store.access;

import dev.caplab.store.row.AlertRow;

import dev.caplab.store.schema.Table;
import javax.sql.DataSource;
import java.util.List;

/** Alerts raised during runs; an identical replayed alert collapses onto the original. */
public final class AlertRepository extends RunScopedRepository<AlertRow> {

    private static final RowCodec<AlertRow> CODEC = new RowCodec<>(Table.ALERTS.sqlName(),
            List.of("run_id", "at", "kind", "step_index", "message"), true,
            (p, r) -> p.addAll(r.runId(), r.at(), r.kind(), r.stepIndex(), r.message()),
            rs -> {
                Fields f = new Fields(rs);
                return new AlertRow(f.string(), f.instant(), f.string(), f.nullableInt32(), f.string());
            });

    public AlertRepository(DataSource dataSource) {
        this(dataSource, (EngineInserts) null);
    }

    /** Reads through {@code dataSource}; inserts straight into the in-process engine when {@code direct} is set. */
    public AlertRepository(DataSource dataSource, EngineInserts direct) {
        super(dataSource, CODEC, "at, kind", direct);
    }

    /** Reads through {@code dataSource}, a run's rows once per {@code reads} scope. */
    public AlertRepository(DataSource dataSource, ReadScope reads) {
        super(dataSource, CODEC, "at, kind", null, reads);
    }
}
