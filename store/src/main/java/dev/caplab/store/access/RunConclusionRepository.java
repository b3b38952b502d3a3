package dev.caplab.store.access;

import dev.caplab.store.schema.Table;
import dev.caplab.store.row.EgressCeilingValue;
import dev.caplab.store.row.RunConclusionRow;
import dev.caplab.store.row.ThroughputLimitValue;

import javax.sql.DataSource;
import java.util.List;
import java.util.Optional;

/** The run conclusion written by streams, one per run; the highest version (latest revision) wins. */
public final class RunConclusionRepository extends RunScopedRepository<RunConclusionRow> {

    private static final RowCodec<RunConclusionRow> CODEC = new RowCodec<>(Table.RUN_CONCLUSIONS.sqlName(),
            List.of("run_id", "max_stable_x", "max_stable_step_index", "first_failing_x", "first_failing_step_index",
                    "steps_judged", "steps_skipped", "bottleneck_source", "bottleneck_metric", "bottleneck_rule",
                    "bottleneck_value", "bottleneck_step_index", "margin", "resources", "run_closed", "model",
                    "concluded_at", "version", "warnings_json", "rules_from", "throughput_knee_x",
                    "throughput_knee_lower95", "throughput_knee_upper95", "throughput_plateau_rate_per_s",
                    "throughput_slope_before_per_x", "throughput_slope_after_per_x", "throughput_breakpoint_p_value",
                    "throughput_steps_used", "throughput_fitted_at", "generator_saturated_at_x",
                    "generator_cpu_percent", "egress_ceiling_mbps", "egress_ceiling_source",
                    "egress_ceiling_measured_at"),
            true,
            (p, r) -> {
                p.addAll(r.runId(), r.maxStableX(), r.maxStableStepIndex(), r.firstFailingX(),
                        r.firstFailingStepIndex(), r.stepsJudged(), r.stepsSkipped(), r.bottleneckSource(),
                        r.bottleneckMetric(), r.bottleneckRule(), r.bottleneckValue(), r.bottleneckStepIndex(),
                        r.margin(), NestedValues.tuples(r.resources(), NestedValues::estimate), r.runClosed(), r.model(), r.concludedAt(), r.version(),
                        r.warningsJson(), r.rulesFrom());
                ThroughputLimitValue t = r.throughputLimit();
                if (t == null) {
                    p.addAll(null, null, null, null, null, null, null, null, null, null, null);
                } else {
                    p.addAll(t.kneeX(), t.kneeLower95(), t.kneeUpper95(), t.plateauRatePerSecond(),
                            t.slopeBeforePerX(), t.slopeAfterPerX(), t.breakpointPValue(), t.stepsUsed(),
                            t.fittedAt(), t.generatorSaturatedAtX(), t.generatorCpuPercent());
                }
                EgressCeilingValue e = r.egressCeiling();
                p.addAll(e == null ? null : e.mbps(), e == null ? null : e.source(),
                        e == null ? null : e.measuredAt());
            },
            rs -> {
                Fields f = new Fields(rs);
                RunConclusionRow row = new RunConclusionRow(f.string(), f.nullableFloat64(), f.nullableInt32(),
                        f.nullableFloat64(), f.nullableInt32(), f.int32(), f.int32(), f.string(), f.string(),
                        f.string(), f.nullableFloat64(), f.nullableInt32(), f.float64(),
                        f.tuples(NestedValues::estimate), f.bool(), f.string(), f.instant(), f.int64(), f.string(),
                        f.string());
                Double kneeX = f.nullableFloat64();
                Double lower = f.nullableFloat64();
                Double upper = f.nullableFloat64();
                Double plateau = f.nullableFloat64();
                Double before = f.nullableFloat64();
                Double after = f.nullableFloat64();
                Double p = f.nullableFloat64();
                Integer steps = f.nullableInt32();
                java.time.Instant fittedAt = f.instant();
                Double generatorX = f.nullableFloat64();
                Double generatorCpu = f.nullableFloat64();
                Double egressMbps = f.nullableFloat64();
                String egressSource = f.string();
                java.time.Instant egressMeasuredAt = f.instant();
                return row.withThroughputLimit(kneeX == null ? null : new ThroughputLimitValue(kneeX, lower, upper,
                                plateau, before, after, p, steps, fittedAt, generatorX, generatorCpu))
                        .withEgressCeiling(egressMbps == null ? null : new EgressCeilingValue(egressMbps,
                                egressSource, egressMeasuredAt));
            });

    public RunConclusionRepository(DataSource dataSource) {
        this(dataSource, (EngineInserts) null);
    }

    /** Reads through {@code dataSource}; inserts straight into the in-process engine when {@code direct} is set. */
    public RunConclusionRepository(DataSource dataSource, EngineInserts direct) {
        super(dataSource, CODEC, "run_id", direct);
    }

    /** Reads through {@code dataSource}, a run's rows once per {@code reads} scope. */
    public RunConclusionRepository(DataSource dataSource, ReadScope reads) {
        super(dataSource, CODEC, "run_id", null, reads);
    }

    /** The run's newest conclusion; empty while no step of it has closed. */
    public Optional<RunConclusionRow> latest(String runId) {
        return ofRun(runId).stream().findFirst();
    }
}
