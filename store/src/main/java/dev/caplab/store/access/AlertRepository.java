package dev.caplab.store.access;

import dev.caplab.store.row.AlertRow;

import dev.caplab.store.schema.Table;
import javax.sql.DataSource;

/** Alerts raised during runs; an identical replayed alert collapses onto the original. */
public final class AlertRepository extends RunScopedRepository<AlertRow> {

    static final RowCodec<AlertRow> CODEC = RowCodec.derived(Table.ALERTS.sqlName(), AlertRow.class, true);

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
