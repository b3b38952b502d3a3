package dev.caplab.store.access;

import dev.caplab.schema.event.RunConclusion;
import dev.caplab.store.schema.Table;

import javax.sql.DataSource;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The run conclusion written by streams, one per run; the highest version (latest revision) wins. The row is the
 * schema's {@link RunConclusion}: the bottleneck, the throughput limit (its plateau rate and the generator's figures
 * under their own column names) and the egress ceiling as prefixed columns of the row, the warnings as Avro's JSON
 * array in {@code warnings_json}.
 */
public final class RunConclusionRepository extends RunScopedRepository<RunConclusion> {

    static final RowCodec<RunConclusion> CODEC = RowCodec.derived(Table.RUN_CONCLUSIONS.sqlName(),
            RunConclusion.class, true, AvroStorage.asNamed().flattened("bottleneck", "bottleneck_")
                    .flattened("throughputLimit", "throughput_")
                    .column("throughputLimit.plateauRatePerSecond", "throughput_plateau_rate_per_s")
                    .column("throughputLimit.generatorSaturatedAtX", "generator_saturated_at_x")
                    .column("throughputLimit.generatorCpuPercent", "generator_cpu_percent")
                    .flattened("egressCeiling", "egress_ceiling_")
                    .json("warnings", "warnings_json"));

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
    public Optional<RunConclusion> latest(String runId) {
        return ofRun(runId).stream().findFirst();
    }

    /** The newest conclusion of every run of {@code runIds} that has one, by run id, read in one query. */
    public Map<String, RunConclusion> latestOf(Collection<String> runIds) {
        Map<String, RunConclusion> out = new LinkedHashMap<>();
        ofRuns(runIds).forEach(c -> out.put(c.getRunId(), c));
        return out;
    }
}
