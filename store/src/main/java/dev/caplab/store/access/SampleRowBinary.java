package dev.caplab.store.access;

import dev.caplab.store.row.SampleRow;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.codec.digest.MurmurHash3;

/**
 * Encodes sample rows as ClickHouse RowBinary for the two tables raw samples are stored in, by hand: samples are the
 * volume, and the driver's generic writer (type dispatch per value, a boxed map walk per row) cost the sink about
 * a third of its CPU. A row becomes a point of {@code sample_points} (run, series id, time, value, summary) and, once
 * per batch, its series in {@code sample_series} (source, metric, kind, labels). Map columns are written with their
 * keys sorted, so equal label sets are equal maps in ClickHouse, and the same series gets the same id, whatever order
 * the producer used.
 */
public final class SampleRowBinary {

    /** {@code sample_series}' columns in the order {@link #encodeSeries} writes them. */
    public static final List<String> SERIES_COLUMNS = List.of("run_id", "series_id", "source", "metric", "kind",
            "labels");
    /** {@code sample_points}' columns in the order {@link #encodePoints} writes them. */
    public static final List<String> POINT_COLUMNS = List.of("run_id", "series_id", "ts", "value", "summary_window",
            "summary_count", "summary_window_micros", "summary_mean", "summary_min", "summary_max",
            "summary_quantiles");
    /**
     * The columns of a batch whose rows have no summary ({@link #hasSummaries}): ClickHouse fills the others with
     * their defaults (NULL, an empty map), exactly what {@link #encodePoints} writes for such a row. chDB parses
     * RowBinary field by field, so seven fewer fields per row is less of its insert CPU for the common batch.
     */
    public static final List<String> PLAIN_POINT_COLUMNS = POINT_COLUMNS.subList(0, 4);

    private SampleRowBinary() {
    }

    /**
     * Appends one {@code sample_series} row per distinct (run, series) of {@code rows}, in first-seen order. The
     * thread's memo is looked up once per batch: looked up per row, the ThreadLocal probe was a tenth of the sink
     * thread's samples (JFR, PipelineBench 2M).
     */
    public static void encodeSeries(List<SampleRow> rows, RowBinaryBuffer out) {
        Memo memo = MEMO.get();
        Set<RunSeries> written = new HashSet<>();
        for (SampleRow r : rows) {
            Series series = series(r, memo);
            if (written.add(new RunSeries(r.runId(), series.id()))) {
                out.string(r.runId());
                out.int64(series.id());
                out.bytes(series.key());
            }
        }
    }

    /** Appends one {@code sample_points} row per row of {@code rows}. */
    public static void encodePoints(List<SampleRow> rows, RowBinaryBuffer out) {
        Memo memo = MEMO.get();
        for (SampleRow r : rows) {
            plainPoint(r, memo, out);
            out.nullableString(r.summaryWindow());
            out.nullableInt64(r.summaryCount());
            out.nullableInt64(r.summaryWindowMicros());
            out.nullableFloat64(r.summaryMean());
            out.nullableFloat64(r.summaryMin());
            out.nullableFloat64(r.summaryMax());
            Map<String, Double> quantiles = r.summaryQuantiles();
            out.varint(quantiles.size());
            for (String key : sortedKeys(quantiles, memo)) {
                out.string(key);
                out.float64(quantiles.get(key));
            }
        }
    }

    /** Whether any row has a summary, so the batch needs {@link #POINT_COLUMNS} rather than the plain ones. */
    public static boolean hasSummaries(List<SampleRow> rows) {
        for (SampleRow r : rows) {
            if (r.hasSummary()) {
                return true;
            }
        }
        return false;
    }

    /** Appends one {@code sample_points} row of {@link #PLAIN_POINT_COLUMNS} per row; none may have a summary. */
    public static void encodePlainPoints(List<SampleRow> rows, RowBinaryBuffer out) {
        Memo memo = MEMO.get();
        for (SampleRow r : rows) {
            if (r.hasSummary()) {
                throw new IllegalArgumentException("a sample with a summary needs every column of "
                        + "sample_points: " + r);
            }
            plainPoint(r, memo, out);
        }
    }

    /** The {@link #PLAIN_POINT_COLUMNS} of a point, the first columns of every point row. */
    private static void plainPoint(SampleRow r, Memo memo, RowBinaryBuffer out) {
        out.string(r.runId());
        out.int64(series(r, memo).id());
        out.dateTime64Micros(r.ts());
        out.float64(r.value());
    }

    /** A series within a batch, for writing each once. */
    private record RunSeries(String runId, long seriesId) {
    }

    /**
     * A series: its key (source, metric, kind and labels sorted by key, as RowBinary: the series columns after
     * run and id) and its id, the key's 64-bit MurmurHash3. Ids only have to be distinct within a run: at 10^6 series
     * in one run the chance of any two sharing an id is ~3·10^-8.
     */
    private record Series(String source, String metric, String kind, Map<String, String> labels, byte[] key,
                          long id) {

        static Series of(String source, String metric, String kind, Map<String, String> labels, Memo memo) {
            RowBinaryBuffer key = new RowBinaryBuffer(64);
            key.string(source);
            key.string(metric);
            key.string(kind);
            key.varint(labels.size());
            for (String label : sortedKeys(labels, memo)) {
                key.string(label);
                key.string(labels.get(label));
            }
            byte[] bytes = Arrays.copyOf(key.array(), key.size());
            return new Series(source, metric, kind, labels, bytes, MurmurHash3.hash128x64(bytes)[0]);
        }

        boolean is(SampleRow r) {
            return labels == r.labels() && same(metric, r.metric()) && same(source, r.source())
                    && same(kind, r.kind());
        }

        private static boolean same(String a, String b) {
            return a == b || a.equals(b);
        }
    }

    private static final String[] NO_KEYS = new String[0];
    private static final int MEMO_SLOTS = 1024;
    /**
     * Recently seen series and sorted key sets, remembered by the identity of their label map: decoded label sets
     * are shared instances, so a batch's rows mostly hit and the ~200 bytes of label text are encoded and hashed once
     * per series, not per row (encoding them per row was most of the sink thread's time).
     */
    private static final ThreadLocal<Memo> MEMO = ThreadLocal.withInitial(Memo::new);

    private static Series series(SampleRow r, Memo memo) {
        Map<String, String> labels = r.labels();
        int slot = (System.identityHashCode(labels) * 31 + r.metric().hashCode()) & (MEMO_SLOTS - 1);
        Series known = memo.series[slot];
        if (known != null && known.is(r)) {
            return known;
        }
        Series series = Series.of(r.source(), r.metric(), r.kind(), labels, memo);
        if (isImmutable(labels)) {
            memo.series[slot] = series;
        }
        return series;
    }

    private static String[] sortedKeys(Map<String, ?> map, Memo memo) {
        if (map.isEmpty()) {
            return NO_KEYS;
        }
        if (map.size() == 1) {
            return map.keySet().toArray(NO_KEYS);
        }
        int slot = System.identityHashCode(map) & (MEMO_SLOTS - 1);
        if (memo.maps[slot] == map) {
            return memo.keys[slot];
        }
        String[] keys = map.keySet().toArray(NO_KEYS);
        Arrays.sort(keys);
        if (isImmutable(map)) {
            memo.maps[slot] = map;
            memo.keys[slot] = keys;
        }
        return keys;
    }

    /** Only maps nobody can change may be remembered by identity: the JDK's immutable ones. */
    private static boolean isImmutable(Map<String, ?> map) {
        return map.getClass() == IMMUTABLE_N || map.getClass() == IMMUTABLE_1;
    }

    private static final Class<?> IMMUTABLE_N = Map.of("a", 1, "b", 2).getClass();
    private static final Class<?> IMMUTABLE_1 = Map.of("a", 1).getClass();

    /** Direct-mapped: a map and its sorted keys per slot, a series per slot. */
    private static final class Memo {
        final Object[] maps = new Object[MEMO_SLOTS];
        final String[][] keys = new String[MEMO_SLOTS][];
        final Series[] series = new Series[MEMO_SLOTS];
    }
}
