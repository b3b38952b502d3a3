package dev.caplab.store.access;

import dev.caplab.store.schema.Table;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * What a run's raw samples say while it runs, computed by ClickHouse over {@code sample_points} and
 * {@code sample_series}: when its last sample was stamped and how many came lately, which series it has, and
 * per-bucket figures of chosen series. Every query reads one run's rows through the tables' primary key
 * ({@code run_id, series_id, ts}), so its cost follows that run's samples, never the number of runs stored.
 * Which series mean requests, failures or latency is not decided here (analysis' {@code TrafficMetrics} does).
 */
public final class RunActivityRepository {

    /** The figures of {@link Bucket} after its start, in its order. */
    /** A series as the query returns it: its UInt64 id as text, which a Java long holds only unsigned. */
    record SeriesColumns(String seriesId, String source, String metric, String kind, Map<String, String> labels) {
    }

    private static final RecordCodec<SeriesColumns> SERIES_COLUMNS = RecordCodec.of(SeriesColumns.class);

    private static final String FIGURES = "count(), sum(value), max(value), avg(value), quantileExact(0.95)(value)";

    private final DataSource dataSource;

    public RunActivityRepository(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /**
     * The run's sample count, its latest sample time (null without samples) and how many samples are stamped within
     * {@code windowSeconds} before that latest one (the end of the window included, its start excluded).
     */
    public record Activity(long samples, Instant lastSampleAt, long samplesInWindow, int windowSeconds) {
    }

    /** One series of a run: its opaque id and what it is. */
    public record SeriesRef(long seriesId, String source, String metric, String kind, Map<String, String> labels) {

        public SeriesRef {
            labels = labels == null ? Map.of() : Map.copyOf(labels);
        }
    }

    /**
     * One time bucket of a set of series, starting at {@code startMillis} (epoch ms, a multiple of the bucket):
     * {@code count} points, the sum, maximum and mean of their values, and their exact 95th percentile
     * (ClickHouse {@code quantileExact}: the value at position ⌊0.95·count⌋ of the sorted values).
     */
    public record Bucket(long startMillis, long count, double sum, double max, double mean, double p95) {
    }

    /** One bucket's median of a tool's window quantile, over {@code windows} summaries. */
    public record WindowMedian(long startMillis, long windows, double median) {
    }

    /** One series' bucket: the same figures, for the series {@code seriesId}. */
    public record SeriesBucket(long seriesId, Bucket bucket) {
    }

    public Activity activity(String runId, int windowSeconds) {
        if (windowSeconds < 1) {
            throw new IllegalArgumentException("windowSeconds must be >= 1, was " + windowSeconds);
        }
        String points = Table.SAMPLE_POINTS.sqlName();
        // the window is measured back from the run's own latest sample: one subquery for it, one pass for the counts
        String sql = "WITH (SELECT max(ts) FROM " + points + " WHERE run_id = ?) AS max_ts "
                + "SELECT count(), toUnixTimestamp64Micro(max(ts)), countIf(ts > max_ts - toIntervalSecond(?)) "
                + "FROM " + points + " WHERE run_id = ?";
        return query(runId, sql, rs -> {
            long n = rs.getLong(1);
            Instant last = n == 0 ? null : micros(rs.getLong(2));
            return new Activity(n, last, n == 0 ? 0 : rs.getLong(3), windowSeconds);
        }, runId, windowSeconds, runId).getFirst();
    }

    /** The run's series of the given metrics (all of them when {@code metrics} is empty). */
    public List<SeriesRef> series(String runId, Collection<String> metrics) {
        List<Object> values = new ArrayList<>();
        values.add(runId);
        values.addAll(metrics);
        String where = metrics.isEmpty() ? "" : " AND metric IN ("
                + String.join(", ", Collections.nCopies(metrics.size(), "?")) + ")";
        return query(runId, "SELECT toString(series_id), any(source), any(metric), any(kind), any(labels) FROM "
                + Table.SAMPLE_SERIES.sqlName() + " WHERE run_id = ?" + where + " GROUP BY series_id "
                + "ORDER BY series_id", rs -> {
                    SeriesColumns c = SERIES_COLUMNS.read(rs);
                    return new SeriesRef(Long.parseUnsignedLong(c.seriesId()), c.source(), c.metric(), c.kind(),
                            c.labels());
                }, values.toArray());
    }

    /** The points of {@code seriesIds} together, per bucket of {@code bucketSeconds}, in time order. */
    public List<Bucket> buckets(String runId, Collection<Long> seriesIds, int bucketSeconds) {
        if (seriesIds.isEmpty()) {
            return List.of();
        }
        return query(runId, "SELECT " + bucketStart(bucketSeconds) + " AS b, " + FIGURES + pointsOf(seriesIds)
                + "GROUP BY b ORDER BY b", rs -> bucket(rs, 1), runId);
    }

    /** The points of each of {@code seriesIds} on its own, per bucket of {@code bucketSeconds}, by series and time. */
    public List<SeriesBucket> seriesBuckets(String runId, Collection<Long> seriesIds, int bucketSeconds) {
        if (seriesIds.isEmpty()) {
            return List.of();
        }
        return query(runId, "SELECT toString(series_id), " + bucketStart(bucketSeconds) + " AS b, " + FIGURES
                + pointsOf(seriesIds) + "GROUP BY series_id, b ORDER BY series_id, b",
                rs -> new SeriesBucket(Long.parseUnsignedLong(rs.getString(1)), bucket(rs, 2)), runId);
    }

    /**
     * Per bucket of {@code bucketSeconds}, the median (ClickHouse {@code quantileExactInclusive(0.5)}: the mean of the
     * two middle values of an even count) of the quantile {@code quantile} (a key of {@code summary_quantiles}, e.g.
     * {@code 0.95}) over the WINDOW summaries of {@code seriesIds}: a tool's own window percentiles combined, never
     * averaged. Buckets without such a summary are absent.
     */
    public List<WindowMedian> windowQuantileMedians(String runId, Collection<Long> seriesIds, int bucketSeconds,
            String quantile) {
        if (seriesIds.isEmpty()) {
            return List.of();
        }
        return query(runId, "SELECT " + bucketStart(bucketSeconds) + " AS b, count(), "
                + "quantileExactInclusive(0.5)(summary_quantiles[?])" + pointsOf(seriesIds)
                + "AND summary_window = 'WINDOW' AND mapContains(summary_quantiles, ?) GROUP BY b ORDER BY b",
                rs -> new WindowMedian(rs.getLong(1), rs.getLong(2), rs.getDouble(3)), quantile, runId, quantile);
    }

    /**
     * Per bucket of {@code bucketSeconds}, the summed counts ({@code summary_count}) of the WINDOW summaries of
     * {@code seriesIds}: the requests a tool counted per window of its own (JMeter's backend listener). Buckets
     * without such a summary are absent.
     */
    public List<Bucket> windowCounts(String runId, Collection<Long> seriesIds, int bucketSeconds) {
        if (seriesIds.isEmpty()) {
            return List.of();
        }
        return query(runId, "SELECT " + bucketStart(bucketSeconds) + " AS b, count(), sum(summary_count), "
                + "max(summary_count), avg(summary_count), 0" + pointsOf(seriesIds)
                + "AND summary_window = 'WINDOW' AND summary_count IS NOT NULL GROUP BY b ORDER BY b",
                rs -> bucket(rs, 1), runId);
    }

    /** The start (epoch ms) of the bucket a point falls in. */
    private static String bucketStart(int bucketSeconds) {
        long bucketMillis = bucketMillis(bucketSeconds);
        return "intDiv(toUnixTimestamp64Milli(ts), " + bucketMillis + ") * " + bucketMillis;
    }

    /** The run's points of {@code seriesIds}: FROM and WHERE, the run id bound as the next parameter. */
    private static String pointsOf(Collection<Long> seriesIds) {
        return " FROM " + Table.SAMPLE_POINTS.sqlName() + " WHERE run_id = ? AND series_id IN (" + ids(seriesIds)
                + ") ";
    }

    private static Bucket bucket(ResultSet rs, int first) throws SQLException {
        return new Bucket(rs.getLong(first), rs.getLong(first + 1), rs.getDouble(first + 2), rs.getDouble(first + 3),
                rs.getDouble(first + 4), rs.getDouble(first + 5));
    }

    private static long bucketMillis(int bucketSeconds) {
        if (bucketSeconds < 1) {
            throw new IllegalArgumentException("bucketSeconds must be >= 1, was " + bucketSeconds);
        }
        return bucketSeconds * 1000L;
    }

    /** Series ids as SQL literals: numbers the store itself made, never text from a request. */
    private static String ids(Collection<Long> seriesIds) {
        return seriesIds.stream().distinct().map(Long::toUnsignedString).collect(Collectors.joining(", "));
    }

    private static Instant micros(long epochMicros) {
        return Instant.ofEpochSecond(Math.floorDiv(epochMicros, 1_000_000L),
                Math.floorMod(epochMicros, 1_000_000L) * 1000L);
    }

    private <R> List<R> query(String runId, String sql, TableAccess.Reader<R> reader, Object... values) {
        return TableAccess.query(dataSource, "reading the samples of run " + runId, sql, reader, values);
    }
}
