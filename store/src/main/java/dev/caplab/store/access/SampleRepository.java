package dev.caplab.store.access;

import dev.caplab.store.measure.EgressMeasurement;
import dev.caplab.store.measure.MeasuredEgress;
import dev.caplab.store.row.SampleRow;

import dev.caplab.store.schema.Table;
import javax.sql.DataSource;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Raw samples: batch inserts (the volume) and per-run, per-metric reads in time order. */
public final class SampleRepository extends RunScopedRepository<SampleRow> {

    private static final RowCodec<SampleRow> CODEC = new RowCodec<>(Table.SAMPLES.sqlName(),
            SampleRowBinary.COLUMNS,
            false,
            (p, r) -> p.addAll(r.runId(), r.ts(), r.source(), r.metric(), r.kind(), r.value(), r.labels(),
                    r.summaryWindow(), r.summaryCount(), r.summaryWindowMicros(), r.summaryMean(), r.summaryMin(),
                    r.summaryMax(), r.summaryQuantiles()),
            rs -> {
                Fields f = new Fields(rs);
                return new SampleRow(f.string(), f.instant(), f.string(), f.string(), f.string(), f.float64(),
                        f.stringMap(), f.string(), f.nullableInt64(), f.nullableInt64(), f.nullableFloat64(),
                        f.nullableFloat64(), f.nullableFloat64(), f.doubleMap());
            },
            SampleRowBinary::encode);

    public SampleRepository(DataSource dataSource) {
        this(dataSource, null);
    }

    /** Reads through {@code dataSource}; inserts straight into the in-process engine when {@code direct} is set. */
    public SampleRepository(DataSource dataSource, EngineInserts direct) {
        super(dataSource, CODEC, "metric, source, ts", direct);
    }

    /** Samples of one metric of a run in [from, to), ordered by source and time. */
    public List<SampleRow> ofRun(String runId, String metric, Instant from, Instant to) {
        return access.select("run_id = ? AND metric = ? AND ts >= ? AND ts < ?", "source, ts",
                runId, metric, from, to);
    }

    /** How many samples a run has. */
    public long countOfRun(String runId) {
        return access.query("SELECT count() FROM " + access.table() + " WHERE run_id = ?", rs -> rs.getLong(1),
                runId).getFirst();
    }

    /** The latest egress ceiling iperf3 measured in the run's samples ({@link EgressMeasurement}), if any. */
    public Optional<MeasuredEgress> latestEgressMeasurement(String runId) {
        return access.query("SELECT argMax(value, ts), max(ts) FROM " + access.table() + " WHERE run_id = ? AND "
                + EgressMeasurement.SQL_PREDICATE + " HAVING count() > 0", rs -> {
                    Fields f = new Fields(rs);
                    return new MeasuredEgress(f.float64(), f.instant());
                }, runId).stream().findFirst();
    }
}
