package dev.caplab.store.access;

import dev.caplab.store.row.CapacityFitRow;

import dev.caplab.store.schema.Table;
import javax.sql.DataSource;
import java.util.List;
import java.util.Optional;

/** Fitted capacity models per (run, metric, source); the highest version (latest refit) wins. */
public final class CapacityFitRepository extends RunScopedRepository<CapacityFitRow> {

    static final RowCodec<CapacityFitRow> CODEC = RowCodec.derived(Table.CAPACITY_FITS.sqlName(), CapacityFitRow.class, true);

    public CapacityFitRepository(DataSource dataSource) {
        this(dataSource, (EngineInserts) null);
    }

    /** Reads through {@code dataSource}; inserts straight into the in-process engine when {@code direct} is set. */
    public CapacityFitRepository(DataSource dataSource, EngineInserts direct) {
        super(dataSource, CODEC, "metric, source", direct);
    }

    /** Reads through {@code dataSource}, a run's rows once per {@code reads} scope. */
    public CapacityFitRepository(DataSource dataSource, ReadScope reads) {
        super(dataSource, CODEC, "metric, source", null, reads);
    }

    /** A run's current fits, of one metric when given, by metric and source. */
    public List<CapacityFitRow> ofRun(String runId, Optional<String> metric) {
        return metric.map(m -> reads.once(access.table(), List.of(runId, m),
                        () -> List.copyOf(access.select("run_id = ? AND metric = ?", "metric, source", runId, m))))
                .orElseGet(() -> ofRun(runId));
    }
}
