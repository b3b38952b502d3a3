package dev.caplab.store.access;

import dev.caplab.store.row.CapacityFitRow;

import dev.caplab.store.schema.Table;
import javax.sql.DataSource;
import java.util.List;
import java.util.Optional;

/** Fitted capacity models per (run, metric, source); the highest version (latest refit) wins. */
public final class CapacityFitRepository extends RunScopedRepository<CapacityFitRow> {

    private static final RowCodec<CapacityFitRow> CODEC = new RowCodec<>(Table.CAPACITY_FITS.sqlName(),
            List.of("run_id", "source", "metric", "model", "model_version", "load_expression", "steps_used",
                    "segments", "breakpoints", "breakpoint_p_value", "r_squared", "cliff",
                    "cliff_step_index", "capacity", "margin", "safe_capacity_x", "bottleneck", "fitted_at",
                    "version", "role"),
            true,
            (p, r) -> p.addAll(r.runId(), r.source(), r.metric(), r.model(), r.modelVersion(), r.loadExpression(),
                    r.stepsUsed(), NestedValues.tuples(r.segments(), NestedValues::segment),
                    NestedValues.tuples(r.breakpoints(), NestedValues::breakpoint), r.breakpointPValue(), r.rSquared(),
                    r.cliff(), r.cliffStepIndex(), r.capacity(), r.margin(), r.safeCapacityX(), r.bottleneck(),
                    r.fittedAt(), r.version(), r.role()),
            rs -> {
                Fields f = new Fields(rs);
                return new CapacityFitRow(f.string(), f.string(), f.string(), f.string(), f.string(), f.string(),
                        f.int32(), f.tuples(NestedValues::segment), f.tuples(NestedValues::breakpoint),
                        f.nullableFloat64(), f.nullableFloat64(), f.bool(), f.nullableInt32(), f.nullableFloat64(), f.float64(), f.nullableFloat64(), f.bool(),
                        f.instant(), f.int64(), f.string());
            });

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
