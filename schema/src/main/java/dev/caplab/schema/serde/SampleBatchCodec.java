package dev.caplab.schema.serde;

import dev.caplab.schema.event.Sample;
import dev.caplab.schema.event.SampleBatch;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryStats;
import dev.caplab.schema.event.SummaryWindow;
import dev.caplab.schema.text.ByteStrings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Avro binary body of the current SampleBatch schema, written and read by hand: samples are the volume, and
 * Avro's generic writer and reader (per-field dispatch, a new String per name and a new map per sample) were a third
 * of the ingest request's and the sink's CPU. The bytes are Avro's binary encoding (the specification's: zig-zag
 * varints, blocks for arrays and maps, union branch index first), exactly what Avro's own encoder writes except that
 * a label map is one block that carries its byte size, a form the specification allows and every Avro reader reads
 * (SampleBatchCodecTest checks both against Avro's encoder and decoder). Reading interns what repeats: equal names
 * are one String, equal label sets one immutable map. Used only for the current writer schema; older writers go
 * through Avro's schema resolution.
 * One instance per thread.
 */
final class SampleBatchCodec implements AvroSerde.BodyCodec<SampleBatch> {

    private static final SampleKind[] KINDS = SampleKind.values();
    private static final SummaryWindow[] WINDOWS = SummaryWindow.values();
    private static final int LABEL_SLOTS = 1024;

    private final ByteStrings strings = new ByteStrings();
    private final byte[][] labelBytes = new byte[LABEL_SLOTS][];
    @SuppressWarnings("unchecked")
    private final Map<String, String>[] labelMaps = new Map[LABEL_SLOTS];

    private final Object[] encodedLabelMaps = new Object[LABEL_SLOTS];
    private final byte[][] encodedLabels = new byte[LABEL_SLOTS][];

    private byte[] out = new byte[1 << 16];
    private int size;

    private byte[] in;
    private int pos;
    private int end;

    /** {@code header} followed by the body of {@code batch}. */
    @Override
    public byte[] encode(byte[] header, SampleBatch batch) {
        size = 0;
        bytes(header, 0, header.length);
        string(batch.getRunId());
        string(batch.getAdapter());
        writeLong(micros(batch.getReceivedAt()));
        List<Sample> samples = batch.getSamples();
        if (!samples.isEmpty()) {
            writeLong(samples.size());
            for (Sample s : samples) {
                sample(s);
            }
        }
        writeLong(0);
        return Arrays.copyOf(out, size);
    }

    private void sample(Sample s) {
        writeLong(micros(s.getTimestamp()));
        string(s.getSource());
        string(s.getMetric());
        writeLong(s.getKind().ordinal());
        writeDouble(s.getValue());
        labels(s.getLabels());
        SummaryStats summary = s.getSummary();
        if (summary == null) {
            writeLong(0);
            return;
        }
        writeLong(1);
        writeLong(summary.getWindow().ordinal());
        writeLong(summary.getCount());
        nullableLong(summary.getWindowMicros());
        nullableDouble(summary.getMean());
        nullableDouble(summary.getMin());
        nullableDouble(summary.getMax());
        Map<String, Double> quantiles = summary.getQuantiles();
        if (!quantiles.isEmpty()) {
            writeLong(quantiles.size());
            for (Map.Entry<String, Double> e : quantiles.entrySet()) {
                string(e.getKey());
                writeDouble(e.getValue());
            }
        }
        writeLong(0);
    }

    /**
     * A label map's Avro bytes, remembered by identity for the JDK's immutable maps (nobody can change them): the
     * parsers hand out one map per series, so a label set is encoded once, not per sample (iterating the map and
     * encoding its strings was the largest part of encoding a request's samples).
     */
    private void labels(Map<String, String> labels) {
        int slot = System.identityHashCode(labels) & (LABEL_SLOTS - 1);
        if (encodedLabelMaps[slot] == labels) {
            byte[] b = encodedLabels[slot];
            bytes(b, 0, b.length);
            return;
        }
        int from = size;
        if (!labels.isEmpty()) {
            for (Map.Entry<String, String> e : labels.entrySet()) {
                string(e.getKey());
                string(e.getValue());
            }
            sizedBlockHeader(from, labels.size());
        }
        writeLong(0);
        if (labels.getClass() == IMMUTABLE_N || labels.getClass() == IMMUTABLE_1) {
            encodedLabelMaps[slot] = labels;
            encodedLabels[slot] = Arrays.copyOfRange(out, from, size);
        }
    }

    /**
     * Puts a block header before the {@code count} items written since {@code from}: Avro's negative count followed
     * by the block's size in bytes, which the specification lets a writer use "to permit fast skipping". A reader
     * then steps over a label map in one jump to find where it ends (readLabels), instead of reading every length.
     */
    private void sizedBlockHeader(int from, int count) {
        int items = size - from;
        writeLong(-count);
        writeLong(items);
        int header = size - from - items;
        byte[] h = Arrays.copyOfRange(out, from + items, size);
        System.arraycopy(out, from, out, from + header, items);
        System.arraycopy(h, 0, out, from, header);
    }

    private static final Class<?> IMMUTABLE_N = Map.of("a", "1", "b", "2").getClass();
    private static final Class<?> IMMUTABLE_1 = Map.of("a", "1").getClass();

    /** Avro's timestamp-micros of an Instant (TimeConversions.TimestampMicrosConversion), overflow refused. */
    private static long micros(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000);
    }

    private void nullableLong(Long v) {
        if (v == null) {
            writeLong(0);
        } else {
            writeLong(1);
            writeLong(v);
        }
    }

    private void nullableDouble(Double v) {
        if (v == null) {
            writeLong(0);
        } else {
            writeLong(1);
            writeDouble(v);
        }
    }

    private void ensure(int more) {
        if (size + more > out.length) {
            out = Arrays.copyOf(out, Math.max(out.length * 2, size + more));
        }
    }

    private void writeLong(long n) {
        ensure(10);
        long v = (n << 1) ^ (n >> 63);
        while ((v & ~0x7FL) != 0) {
            out[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out[size++] = (byte) v;
    }

    private void writeDouble(double d) {
        ensure(8);
        long bits = Double.doubleToRawLongBits(d);
        for (int i = 0; i < 8; i++) {
            out[size++] = (byte) (bits >>> (8 * i));
        }
    }

    private void string(String s) {
        int n = s.length();
        ensure(n + 10);
        if (n < 64) {
            // ASCII fits its own length: a one-byte zig-zag length (2n), then the chars as bytes
            int at = size + 1;
            boolean ascii = true;
            for (int i = 0; i < n && ascii; i++) {
                char c = s.charAt(i);
                ascii = c < 0x80;
                out[at + i] = (byte) c;
            }
            if (ascii) {
                out[size] = (byte) (2 * n);
                size = at + n;
                return;
            }
        }
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        writeLong(b.length);
        bytes(b, 0, b.length);
    }

    private void bytes(byte[] b, int from, int length) {
        ensure(length);
        System.arraycopy(b, from, out, size, length);
        size += length;
    }

    /** The SampleBatch whose body starts at {@code offset}; runs off the end or malformed: an exception. */
    @Override
    public SampleBatch decode(byte[] data, int offset) {
        in = data;
        pos = offset;
        end = data.length;
        try {
            String runId = readString();
            String adapter = readString();
            Instant receivedAt = instant(readLong());
            List<Sample> samples = new ArrayList<>();
            for (long n = blockCount(); n != 0; n = blockCount()) {
                for (long i = 0; i < n; i++) {
                    samples.add(readSample());
                }
            }
            if (pos != end) {
                throw new IllegalArgumentException((end - pos) + " bytes after the SampleBatch");
            }
            return new SampleBatch(runId, adapter, receivedAt, samples);
        } finally {
            in = null;
        }
    }

    private Sample readSample() {
        Instant timestamp = instant(readLong());
        String source = readString();
        String metric = readString();
        SampleKind kind = KINDS[readIndex(KINDS.length)];
        double value = readDouble();
        Map<String, String> labels = readLabels();
        SummaryStats summary = switch (readIndex(2)) {
            case 0 -> null;
            default -> readSummary();
        };
        return new Sample(timestamp, source, metric, kind, value, labels, summary);
    }

    /**
     * A label map, interned: the block's bytes are hashed and a map decoded from the same bytes before is returned
     * again (immutable, so sharing it is safe).
     */
    private Map<String, String> readLabels() {
        int start = pos;
        long first = blockCount();
        if (first == 0) {
            return Map.of();
        }
        pos = start;
        skipStringMap();
        int stop = pos;
        int slot = ByteStrings.slot(in, start, stop, LABEL_SLOTS);
        byte[] key = labelBytes[slot];
        if (key != null && Arrays.equals(key, 0, key.length, in, start, stop)) {
            return labelMaps[slot];
        }
        pos = start;
        Map<String, String> decoded = new HashMap<>();
        for (long n = blockCount(); n != 0; n = blockCount()) {
            for (long i = 0; i < n; i++) {
                String k = readString();
                decoded.put(k, readString());
            }
        }
        Map<String, String> labels = Map.copyOf(decoded);
        labelBytes[slot] = Arrays.copyOfRange(in, start, stop);
        labelMaps[slot] = labels;
        return labels;
    }

    /** Skips a map of strings: a block with its byte size in one jump (as this codec writes them), else item by item. */
    private void skipStringMap() {
        for (long n = readLong(); n != 0; n = readLong()) {
            if (n < 0) {
                int bytes = length(); // read before pos is: "pos += length()" would add to pos before the size
                pos += bytes;
                continue;
            }
            for (long i = 0; i < 2 * n; i++) {
                int length = length();
                pos += length;
            }
        }
    }

    private SummaryStats readSummary() {
        SummaryWindow window = WINDOWS[readIndex(WINDOWS.length)];
        long count = readLong();
        Long windowMicros = readIndex(2) == 0 ? null : readLong();
        Double mean = readIndex(2) == 0 ? null : readDouble();
        Double min = readIndex(2) == 0 ? null : readDouble();
        Double max = readIndex(2) == 0 ? null : readDouble();
        Map<String, Double> quantiles = new HashMap<>();
        for (long n = blockCount(); n != 0; n = blockCount()) {
            for (long i = 0; i < n; i++) {
                String k = readString();
                quantiles.put(k, readDouble());
            }
        }
        return new SummaryStats(window, count, windowMicros, mean, min, max, quantiles);
    }

    /** Avro's timestamp-micros to an Instant, as TimeConversions.TimestampMicrosConversion does. */
    private static Instant instant(long micros) {
        return Instant.ofEpochSecond(micros / 1_000_000L, (micros % 1_000_000L) * 1_000L);
    }

    /** A block's item count; a negative count is followed by the block's byte size, which is skipped. */
    private long blockCount() {
        long n = readLong();
        if (n < 0) {
            readLong();
            n = -n;
        }
        return n;
    }

    private int readIndex(int bound) {
        long i = readLong();
        if (i < 0 || i >= bound) {
            throw new IllegalArgumentException("index " + i + " outside [0, " + bound + ") at byte " + pos);
        }
        return (int) i;
    }

    private int length() {
        long n = readLong();
        if (n < 0 || n > end - pos) {
            throw new IndexOutOfBoundsException("string of " + n + " bytes at byte " + pos + " of " + end);
        }
        return (int) n;
    }

    private String readString() {
        int n = length();
        String s = strings.get(in, pos, pos + n);
        pos += n;
        return s;
    }

    private long readLong() {
        long v = 0;
        int shift = 0;
        while (true) {
            if (pos >= end) {
                throw new IndexOutOfBoundsException("varint runs past the end at byte " + pos);
            }
            byte b = in[pos++];
            v |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                break;
            }
            shift += 7;
            if (shift > 63) {
                throw new IllegalArgumentException("varint longer than 10 bytes at byte " + pos);
            }
        }
        return (v >>> 1) ^ -(v & 1);
    }

    private double readDouble() {
        if (end - pos < 8) {
            throw new IndexOutOfBoundsException("double runs past the end at byte " + pos);
        }
        long bits = 0;
        for (int i = 7; i >= 0; i--) {
            bits = (bits << 8) | (in[pos + i] & 0xFFL);
        }
        pos += 8;
        return Double.longBitsToDouble(bits);
    }
}
