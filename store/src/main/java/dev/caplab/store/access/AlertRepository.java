package dev.caplab.store.access;

import dev.caplab.schema.event.Alert;

import dev.caplab.store.schema.Table;
import javax.sql.DataSource;

/** Alerts raised during runs; an identical replayed alert collapses onto the original. */
public final class AlertRepository extends RunScopedRepository<Alert> {

    static final RowCodec<Alert> CODEC = RowCodec.derived(Table.ALERTS.sqlName(), Alert.class, true);

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
