package dev.caplab.bench.store;

import dev.caplab.store.access.RowBinaryBuffer;
import dev.caplab.store.row.SampleRow;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A bench-only prototype: sample rows as one ClickHouse Native block (columnar: each column's values together, a
 * Map as its rows' end offsets then all keys then all values, a Nullable as its null map then all values), to
 * measure Java encoding plus chDB's insert against RowBinary. Not used by caplab; the LowCardinality columns are
 * sent as String (chDB converts on insert). Label blocks are not memoised as the real encoder's are.
 */
final class NativeSamplesPrototype {

    private NativeSamplesPrototype() {
    }

    static void encode(List<SampleRow> rows, RowBinaryBuffer out) {
        int n = rows.size();
        RowBinaryBuffer runId = new RowBinaryBuffer(n * 16);
        RowBinaryBuffer ts = new RowBinaryBuffer(n * 8);
        RowBinaryBuffer source = new RowBinaryBuffer(n * 8);
        RowBinaryBuffer metric = new RowBinaryBuffer(n * 20);
        RowBinaryBuffer kind = new RowBinaryBuffer(n * 6);
        RowBinaryBuffer value = new RowBinaryBuffer(n * 8);
        RowBinaryBuffer labelOffsets = new RowBinaryBuffer(n * 8);
        RowBinaryBuffer labelKeys = new RowBinaryBuffer(n * 64);
        RowBinaryBuffer labelValues = new RowBinaryBuffer(n * 128);
        RowBinaryBuffer[] nullMaps = new RowBinaryBuffer[6];
        RowBinaryBuffer[] nullableValues = new RowBinaryBuffer[6];
        for (int i = 0; i < 6; i++) {
            nullMaps[i] = new RowBinaryBuffer(n);
            nullableValues[i] = new RowBinaryBuffer(n * 8);
        }
        RowBinaryBuffer qOffsets = new RowBinaryBuffer(n * 8);
        RowBinaryBuffer qKeys = new RowBinaryBuffer(64);
        RowBinaryBuffer qValues = new RowBinaryBuffer(64);
        long labelEnd = 0;
        long qEnd = 0;
        for (SampleRow r : rows) {
            runId.string(r.runId());
            ts.int64(r.ts().getEpochSecond() * 1_000_000L + r.ts().getNano() / 1_000);
            source.string(r.source());
            metric.string(r.metric());
            kind.string(r.kind());
            value.float64(r.value());
            String[] keys = r.labels().keySet().toArray(new String[0]);
            Arrays.sort(keys);
            for (String k : keys) {
                labelKeys.string(k);
                labelValues.string(r.labels().get(k));
            }
            labelEnd += keys.length;
            labelOffsets.int64(labelEnd);
            nullMaps[0].uint8(r.summaryWindow() == null ? 1 : 0);
            nullableValues[0].string(r.summaryWindow() == null ? "" : r.summaryWindow());
            longOrNull(nullMaps[1], nullableValues[1], r.summaryCount());
            longOrNull(nullMaps[2], nullableValues[2], r.summaryWindowMicros());
            doubleOrNull(nullMaps[3], nullableValues[3], r.summaryMean());
            doubleOrNull(nullMaps[4], nullableValues[4], r.summaryMin());
            doubleOrNull(nullMaps[5], nullableValues[5], r.summaryMax());
            Map<String, Double> q = r.summaryQuantiles();
            String[] qk = q.keySet().toArray(new String[0]);
            Arrays.sort(qk);
            for (String k : qk) {
                qKeys.string(k);
                qValues.float64(q.get(k));
            }
            qEnd += qk.length;
            qOffsets.int64(qEnd);
        }
        out.varint(14);
        out.varint(n);
        column(out, "run_id", "String", runId);
        column(out, "ts", "DateTime64(6, 'UTC')", ts);
        column(out, "source", "String", source);
        column(out, "metric", "String", metric);
        column(out, "kind", "String", kind);
        column(out, "value", "Float64", value);
        column(out, "labels", "Map(String, String)", labelOffsets, labelKeys, labelValues);
        column(out, "summary_window", "Nullable(String)", nullMaps[0], nullableValues[0]);
        column(out, "summary_count", "Nullable(Int64)", nullMaps[1], nullableValues[1]);
        column(out, "summary_window_micros", "Nullable(Int64)", nullMaps[2], nullableValues[2]);
        column(out, "summary_mean", "Nullable(Float64)", nullMaps[3], nullableValues[3]);
        column(out, "summary_min", "Nullable(Float64)", nullMaps[4], nullableValues[4]);
        column(out, "summary_max", "Nullable(Float64)", nullMaps[5], nullableValues[5]);
        column(out, "summary_quantiles", "Map(String, Float64)", qOffsets, qKeys, qValues);
    }

    private static void column(RowBinaryBuffer out, String name, String type, RowBinaryBuffer... parts) {
        out.string(name);
        out.string(type);
        for (RowBinaryBuffer p : parts) {
            out.bytes(java.util.Arrays.copyOf(p.array(), p.size())); // a copy: main has no slice write
        }
    }

    private static void longOrNull(RowBinaryBuffer nulls, RowBinaryBuffer values, Long v) {
        nulls.uint8(v == null ? 1 : 0);
        values.int64(v == null ? 0 : v);
    }

    private static void doubleOrNull(RowBinaryBuffer nulls, RowBinaryBuffer values, Double v) {
        nulls.uint8(v == null ? 1 : 0);
        values.float64(v == null ? 0 : v);
    }
}
