package dev.caplab.bench.store;

import dev.caplab.store.row.SampleRow;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Encodes sample rows as ClickHouse RowBinary in {@code samples} column order, for the direct insert path. */
final class SampleRowBinary {

    static final String COLUMNS = "run_id, ts, source, metric, kind, value, labels, summary_window, summary_count,"
            + " summary_window_micros, summary_mean, summary_min, summary_max, summary_quantiles";

    private final ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 20);
    private final byte[] scratch = new byte[8];

    byte[] encode(List<SampleRow> rows) {
        out.reset();
        for (SampleRow r : rows) {
            string(r.runId());
            int64(micros(r.ts()));
            string(r.source());
            string(r.metric());
            string(r.kind());
            int64(Double.doubleToRawLongBits(r.value()));
            varint(r.labels().size());
            for (Map.Entry<String, String> e : r.labels().entrySet()) {
                string(e.getKey());
                string(e.getValue());
            }
            nullableString(r.summaryWindow());
            nullableInt64(r.summaryCount());
            nullableInt64(r.summaryWindowMicros());
            nullableDouble(r.summaryMean());
            nullableDouble(r.summaryMin());
            nullableDouble(r.summaryMax());
            varint(r.summaryQuantiles().size());
            for (Map.Entry<String, Double> e : r.summaryQuantiles().entrySet()) {
                string(e.getKey());
                int64(Double.doubleToRawLongBits(e.getValue()));
            }
        }
        return out.toByteArray();
    }

    private static long micros(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000);
    }

    private void nullableString(String v) {
        out.write(v == null ? 1 : 0);
        if (v != null) {
            string(v);
        }
    }

    private void nullableInt64(Long v) {
        out.write(v == null ? 1 : 0);
        if (v != null) {
            int64(v);
        }
    }

    private void nullableDouble(Double v) {
        out.write(v == null ? 1 : 0);
        if (v != null) {
            int64(Double.doubleToRawLongBits(v));
        }
    }

    private void string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        varint(b.length);
        out.write(b, 0, b.length);
    }

    private void int64(long v) {
        for (int i = 0; i < 8; i++) {
            scratch[i] = (byte) (v >>> (8 * i));
        }
        out.write(scratch, 0, 8);
    }

    private void varint(long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }
}
