package dev.caplab.store.access;

import dev.caplab.store.row.StepVerdictRow;

import dev.caplab.store.schema.Table;
import javax.sql.DataSource;
import java.util.List;

/** Pass/fail verdicts per step; the highest version per (run, step) wins. */
public final class StepVerdictRepository extends RunScopedRepository<StepVerdictRow> {

    private static final RowCodec<StepVerdictRow> CODEC = new RowCodec<>(Table.STEP_VERDICTS.sqlName(),
            List.of("run_id", "step_index", "load", "x", "passed", "outcomes", "contaminated",
                    "contamination_reason", "bottleneck", "version", "late_count"),
            true,
            (p, r) -> p.addAll(r.runId(), r.stepIndex(), r.load(), r.x(), r.passed(),
                    NestedValues.tuples(r.outcomes(), NestedValues::outcome),
                    r.contaminated(), r.contaminationReason(), r.bottleneck(), r.version(), r.lateCount()),
            rs -> {
                Fields f = new Fields(rs);
                return new StepVerdictRow(f.string(), f.int32(), f.doubleMap(), f.nullableFloat64(), f.bool(),
                        f.tuples(NestedValues::outcome), f.bool(), f.string(), f.string(), f.int64(), f.int64());
            });

    public StepVerdictRepository(DataSource dataSource) {
        super(dataSource, CODEC, "step_index");
    }
}
