package dev.caplab.store.access;

import dev.caplab.store.row.SampleRow;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Encodes sample rows as ClickHouse RowBinary in {@link SampleRepository}'s column order, by hand: samples are the
 * volume, and the driver's generic writer (type dispatch per value, a boxed map walk per row) cost the sink about
 * a third of its CPU. Map columns are written with their keys sorted, so equal label sets are equal maps in
 * ClickHouse whatever order the producer used.
 */
public final class SampleRowBinary {

    /** The samples table's columns in the order {@link #encode} writes them. */
    public static final List<String> COLUMNS = List.of("run_id", "ts", "source", "metric", "kind", "value", "labels",
            "summary_window", "summary_count", "summary_window_micros", "summary_mean", "summary_min", "summary_max",
            "summary_quantiles");

    private SampleRowBinary() {
    }

    /**
     * Appends {@code rows} to {@code out}. The thread's memo is looked up once per batch: looked up per row, the
     * ThreadLocal probe was a tenth of the sink thread's samples (JFR, PipelineBench 2M).
     */
    public static void encode(List<SampleRow> rows, RowBinaryBuffer out) {
        KeyMemo memo = MEMO.get();
        for (SampleRow r : rows) {
            encode(r, out, memo);
        }
    }

    /** Appends one row to {@code out}. */
    public static void encode(SampleRow r, RowBinaryBuffer out) {
        encode(r, out, MEMO.get());
    }

    private static void encode(SampleRow r, RowBinaryBuffer out, KeyMemo memo) {
        out.string(r.runId());
        out.dateTime64Micros(r.ts());
        out.string(r.source());
        out.string(r.metric());
        out.string(r.kind());
        out.float64(r.value());
        out.bytes(labelsBlock(r.labels(), memo));
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

    private static final String[] NO_KEYS = new String[0];
    private static final int MEMO_SLOTS = 256;
    /** The sorted keys of recently seen maps, by identity: decoded label sets are shared instances, sorted once. */
    private static final ThreadLocal<KeyMemo> MEMO = ThreadLocal.withInitial(KeyMemo::new);

    private static String[] sortedKeys(Map<String, ?> map, KeyMemo memo) {
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

    /**
     * The encoded labels column of {@code labels} (count, then key and value by key): remembered by identity like
     * {@link #sortedKeys}, so an interned label set is one copy per row. Encoding ~200 bytes of label text per row
     * char by char, and probing the map per key, were most of the sink thread's time.
     */
    private static byte[] labelsBlock(Map<String, String> labels, KeyMemo memo) {
        int slot = System.identityHashCode(labels) & (MEMO_SLOTS - 1);
        if (memo.labelMaps[slot] == labels) {
            return memo.labelBlocks[slot];
        }
        RowBinaryBuffer block = new RowBinaryBuffer(64);
        block.varint(labels.size());
        for (String key : sortedKeys(labels, memo)) {
            block.string(key);
            block.string(labels.get(key));
        }
        byte[] bytes = Arrays.copyOf(block.array(), block.size());
        if (isImmutable(labels)) {
            memo.labelMaps[slot] = labels;
            memo.labelBlocks[slot] = bytes;
        }
        return bytes;
    }

    /** Only maps nobody can change may be remembered by identity: the JDK's immutable ones. */
    private static boolean isImmutable(Map<String, ?> map) {
        return map.getClass() == IMMUTABLE_N || map.getClass() == IMMUTABLE_1;
    }

    private static final Class<?> IMMUTABLE_N = Map.of("a", 1, "b", 2).getClass();
    private static final Class<?> IMMUTABLE_1 = Map.of("a", 1).getClass();

    /** Direct-mapped: a map and its sorted keys per slot. */
    private static final class KeyMemo {
        final Object[] maps = new Object[MEMO_SLOTS];
        final String[][] keys = new String[MEMO_SLOTS][];
        final Object[] labelMaps = new Object[MEMO_SLOTS];
        final byte[][] labelBlocks = new byte[MEMO_SLOTS][];
    }
}
