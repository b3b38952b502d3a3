package dev.caplab.store.access;

import dev.caplab.schema.vocabulary.EgressMeasurement;
import dev.caplab.store.measure.MeasuredEgress;
import dev.caplab.store.row.SampleRow;

import dev.caplab.store.schema.Table;
import javax.sql.DataSource;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Raw samples: batch inserts (the volume) into {@code sample_series} and {@code sample_points}, and per-run,
 * per-metric reads in time order through the {@code samples} view that joins them.
 */
public final class SampleRepository extends RunScopedRepository<SampleRow> {

    static final RowCodec<SampleRow> CODEC = RowCodec.derived(Table.SAMPLES.sqlName(), SampleRow.class, false)
            .refusingWrites(Table.SAMPLES + " is a view: rows go to " + Table.SAMPLE_SERIES + " and "
                    + Table.SAMPLE_POINTS);

    static final RowCodec<SampleRow> SERIES = RowCodec.writeOnly(Table.SAMPLE_SERIES.sqlName(),
            SampleRowBinary.SERIES_COLUMNS, SampleRowBinary::encodeSeries);
    static final RowCodec<SampleRow> POINTS = RowCodec.writeOnly(Table.SAMPLE_POINTS.sqlName(),
            SampleRowBinary.POINT_COLUMNS, SampleRowBinary::encodePoints);
    static final RowCodec<SampleRow> PLAIN_POINTS = RowCodec.writeOnly(Table.SAMPLE_POINTS.sqlName(),
            SampleRowBinary.PLAIN_POINT_COLUMNS, SampleRowBinary::encodePlainPoints);

    private final TableAccess<SampleRow> series;
    private final TableAccess<SampleRow> points;
    private final TableAccess<SampleRow> plainPoints;

    public SampleRepository(DataSource dataSource) {
        this(dataSource, null);
    }

    /** Reads through {@code dataSource}; inserts straight into the in-process engine when {@code direct} is set. */
    public SampleRepository(DataSource dataSource, EngineInserts direct) {
        super(dataSource, CODEC, "metric, source, ts", direct);
        this.series = new TableAccess<>(dataSource, SERIES, direct);
        this.points = new TableAccess<>(dataSource, POINTS, direct);
        this.plainPoints = new TableAccess<>(dataSource, PLAIN_POINTS, direct);
    }

    /**
     * Inserts one batch: the series of its rows first, then their points, each insert under {@code dedupToken} in
     * its own table. A point is never stored without its series: if the series insert fails, no point was written;
     * if the points insert fails, the retry finds the series stored (deduplicated, or collapsed by
     * ReplacingMergeTree) and writes the points. A batch without summaries writes only the points' first columns
     * ({@link SampleRowBinary#PLAIN_POINT_COLUMNS}); a replay of the same batch makes the same choice.
     */
    @Override
    public int insertBatch(List<SampleRow> rows, String dedupToken) {
        series.insertBatch(rows, dedupToken);
        return (SampleRowBinary.hasSummaries(rows) ? points : plainPoints).insertBatch(rows, dedupToken);
    }

    /** Samples of one metric of a run in [from, to), ordered by source and time. */
    public List<SampleRow> ofRun(String runId, String metric, Instant from, Instant to) {
        return access.select("run_id = ? AND metric = ? AND ts >= ? AND ts < ?", "source, ts",
                runId, metric, from, to);
    }

    /** How many samples a run has: its points, without the join. */
    public long countOfRun(String runId) {
        return access.query("SELECT count() FROM " + points.table() + " WHERE run_id = ?", rs -> rs.getLong(1),
                runId).getFirst();
    }

    /** {@link EgressMeasurement#isCeiling} over the samples table's {@code metric} and {@code labels} columns. */
    private static final RecordCodec<MeasuredEgress> EGRESS = RecordCodec.of(MeasuredEgress.class);

    private static final String EGRESS_CEILING = "metric = '" + EgressMeasurement.METRIC + "' AND labels['"
            + EgressMeasurement.SCOPE + "'] = '" + EgressMeasurement.SCOPE_TEST + "' AND labels['"
            + EgressMeasurement.SIDE + "'] = '" + EgressMeasurement.SIDE_SENDER + "'";

    /** The latest egress ceiling iperf3 measured in the run's samples ({@link EgressMeasurement}), if any. */
    public Optional<MeasuredEgress> latestEgressMeasurement(String runId) {
        return access.query("SELECT argMax(value, ts), max(ts) FROM " + access.table() + " WHERE run_id = ? AND "
                + EGRESS_CEILING + " HAVING count() > 0", EGRESS::read, runId).stream().findFirst();
    }
}
