package dev.caplab.store.access;

import dev.caplab.store.row.StepAggregateRow;

import dev.caplab.store.schema.Table;
import javax.sql.DataSource;
import java.util.List;

/** Per-step statistics written by streams; the highest version per (run, step, metric, source) wins. */
public final class StepAggregateRepository extends RunScopedRepository<StepAggregateRow> {

    private static final RowCodec<StepAggregateRow> CODEC = new RowCodec<>(Table.STEP_AGGREGATES,
            List.of("run_id", "step_index", "load", "x", "source", "metric", "kind", "sample_count", "warmup_count",
                    "value_sum", "value_min", "value_max", "value_mean", "sustained", "peak", "quantiles",
                    "rate_per_second", "baseline_delta", "window_start", "window_end", "contaminated", "version", "late_count"),
            true,
            (p, r) -> p.addAll(r.runId(), r.stepIndex(), r.load(), r.x(), r.source(), r.metric(), r.kind(),
                    r.sampleCount(), r.warmupCount(), r.valueSum(), r.valueMin(), r.valueMax(), r.valueMean(),
                    r.sustained(), r.peak(), r.quantiles(), r.ratePerSecond(), r.baselineDelta(), r.windowStart(),
                    r.windowEnd(), r.contaminated(), r.version(), r.lateCount()),
            rs -> {
                Fields f = new Fields(rs);
                return new StepAggregateRow(f.string(), f.int32(), f.doubleMap(), f.nullableFloat64(), f.string(),
                        f.string(), f.string(), f.int64(), f.int64(), f.float64(), f.float64(), f.float64(),
                        f.float64(), f.float64(), f.float64(), f.doubleMap(), f.nullableFloat64(),
                        f.nullableFloat64(), f.instant(), f.instant(), f.bool(), f.int64(), f.int64());
            });

    public StepAggregateRepository(DataSource dataSource) {
        super(dataSource, CODEC, "step_index, metric, source");
    }

    /** One metric's aggregates over all steps of a run, the series a fit is drawn from. */
    public List<StepAggregateRow> ofRun(String runId, String metric) {
        return access.select("run_id = ? AND metric = ?", "step_index, source", runId, metric);
    }
}
