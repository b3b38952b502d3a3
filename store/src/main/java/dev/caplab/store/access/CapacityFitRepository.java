package dev.caplab.store.access;

import dev.caplab.schema.event.CapacityFit;
import dev.caplab.store.schema.Table;
import javax.sql.DataSource;
import java.util.List;
import java.util.Optional;

/**
 * Fitted capacity models per (run, metric, source), stored as the schema's {@link CapacityFit}; the highest version
 * (latest refit) wins. A segment's {@code interceptStdErr}, {@code slopeLower95} and {@code slopeUpper95} have no
 * column and read back as null: the API serves a piece with its slope's standard error and the page and report draw
 * its line, so no reader of the store needs them ({@code caplab fit} prints them from the fit itself).
 */
public final class CapacityFitRepository extends RunScopedRepository<CapacityFit> {

    static final RowCodec<CapacityFit> CODEC = RowCodec.derived(Table.CAPACITY_FITS.sqlName(), CapacityFit.class, true,
            AvroStorage.asNamed().notStored("segments.interceptStdErr", "segments.slopeLower95",
                    "segments.slopeUpper95"));

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
    public List<CapacityFit> ofRun(String runId, Optional<String> metric) {
        return metric.map(m -> reads.once(access.table(), List.of(runId, m),
                        () -> List.copyOf(access.select("run_id = ? AND metric = ?", "metric, source", runId, m))))
                .orElseGet(() -> ofRun(runId));
    }
}
