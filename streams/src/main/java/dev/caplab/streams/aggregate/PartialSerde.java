package dev.caplab.streams.aggregate;

import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryWindow;
import dev.caplab.schema.text.ByteStrings;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Versioned binary encoding of a {@link Partial} for the partials store and its changelog: big-endian numbers and
 * strings as an int byte length and UTF-8 ({@link dev.caplab.streams.StateStrings}' form), written and read straight
 * on byte arrays (reads through a {@link ByteBuffer}, whose default order is big-endian).
 *
 * <p>Format 2 is format 1 followed by the partial's {@link Partial#windowCount() window count} (a long); it is
 * written only for a partial with WINDOW summaries whose count is known, so every other partial is still format 1,
 * byte for byte. Both are read: a format-1 partial with WINDOW summaries comes back with its window count unknown
 * (what wrote it did not keep one), and is written back as format 1.
 *
 * <p>Format 3 adds, after each summary point's quantiles, the count and mean its tool gave (a long and a double: a
 * CUMULATIVE summary's totals since start), and always ends with the window count (-1 when unknown, 0 without
 * WINDOW summaries). It is written only for a partial with a summary point whose tool gave a mean; every other
 * partial keeps format 1 or 2, and their summary points read back without count and mean.
 *
 * <p>Every fold and every step close reads partials back, and the series part of each (source, metric, kind and
 * labels, ~100-200 bytes) repeats from one second to the next: decoded string by string into a new sorted map it
 * was a third of this serde's time (JFR, PipelineBench 2M). A thread's decoder remembers the series of recently
 * read bytes, so equal bytes give the one {@link SeriesId} (its key computed once), and its encoder the bytes of
 * recently written series.
 */
public final class PartialSerde {

    private static final byte FORMAT = 1;
    private static final byte FORMAT_WITH_WINDOW_COUNT = 2;
    private static final byte FORMAT_WITH_SUMMARY_TOTALS = 3;
    private static final SampleKind[] KINDS = SampleKind.values();
    private static final SummaryWindow[] WINDOWS = SummaryWindow.values();
    private static final ThreadLocal<SeriesCache> SERIES = ThreadLocal.withInitial(SeriesCache::new);

    private PartialSerde() {
    }

    public static Serde<Partial> serde() {
        Serializer<Partial> ser = (topic, p) -> p == null ? null : encode(p);
        Deserializer<Partial> de = (topic, b) -> b == null ? null : decode(b);
        return Serdes.serdeFrom(ser, de);
    }

    public static byte[] encode(Partial p) {
        byte[] series = SERIES.get().bytesOf(p.series, p.kind);
        byte[] sketch = p.sketch.encode();
        Writer out = new Writer(1 + 8 + series.length + 8 + 2 * 33 + 16 + 4 + sketch.length + 2
                + p.points.size() * 16 + 2 + p.summaries.size() * 80 + 8);
        boolean withTotals = p.summaries.stream().anyMatch(Partial.SummaryPoint::hasTotals);
        boolean withWindowCount = p.windowCount != Partial.UNKNOWN_WINDOW_COUNT && p.hasWindowSummaries();
        out.writeByte(withTotals ? FORMAT_WITH_SUMMARY_TOTALS : withWindowCount ? FORMAT_WITH_WINDOW_COUNT : FORMAT);
        out.writeLong(p.bucketMicros);
        out.write(series);
        out.writeLong(p.count);
        writeSum(out, p.sum);
        writeSum(out, p.sumSquares);
        out.writeDouble(p.min);
        out.writeDouble(p.max);
        out.writeInt(sketch.length);
        out.write(sketch);
        out.writeShort(p.points.size());
        for (TimedValue v : p.points) {
            out.writeLong(v.timestampMicros());
            out.writeDouble(v.value());
        }
        out.writeShort(p.summaries.size());
        for (Partial.SummaryPoint s : p.summaries) {
            out.writeLong(s.timestampMicros());
            out.writeByte(s.window().ordinal());
            out.writeShort(s.quantiles().size());
            for (Map.Entry<String, Double> e : s.quantiles().entrySet()) {
                out.writeString(e.getKey());
                out.writeDouble(e.getValue());
            }
            if (withTotals) {
                out.writeLong(s.count());
                out.writeDouble(s.mean());
            }
        }
        if (withTotals) {
            out.writeLong(p.hasWindowSummaries() ? p.windowCount : 0);
        } else if (withWindowCount) {
            out.writeLong(p.windowCount);
        }
        return out.bytes();
    }

    public static Partial decode(byte[] b) {
        try {
            ByteBuffer in = ByteBuffer.wrap(b);
            int format = in.get();
            if (format != FORMAT && format != FORMAT_WITH_WINDOW_COUNT && format != FORMAT_WITH_SUMMARY_TOTALS) {
                throw new SerializationException("partial: unknown format " + format);
            }
            long bucket = in.getLong();
            SeriesCache.Entry series = SERIES.get().seriesAt(in);
            long count = in.getLong();
            ExactSum sum = readSum(in);
            ExactSum squares = readSum(in);
            double min = in.getDouble();
            double max = in.getDouble();
            int sketchLength = length(in);
            QuantileSketch sketch = QuantileSketch.decode(b, in.position(), sketchLength);
            in.position(in.position() + sketchLength);
            List<TimedValue> points = new ArrayList<>();
            for (int n = in.getShort(), i = 0; i < n; i++) {
                points.add(new TimedValue(in.getLong(), in.getDouble()));
            }
            List<Partial.SummaryPoint> summaries = new ArrayList<>();
            for (int n = in.getShort(), i = 0; i < n; i++) {
                long t = in.getLong();
                SummaryWindow w = WINDOWS[in.get()];
                Map<String, Double> q = new TreeMap<>();
                for (int m = in.getShort(), j = 0; j < m; j++) {
                    q.put(string(in), in.getDouble());
                }
                summaries.add(format == FORMAT_WITH_SUMMARY_TOTALS
                        ? new Partial.SummaryPoint(t, w, q, in.getLong(), in.getDouble())
                        : new Partial.SummaryPoint(t, w, q));
            }
            boolean anyWindow = summaries.stream().anyMatch(p -> p.window() == SummaryWindow.WINDOW);
            long windowCount = anyWindow ? Partial.UNKNOWN_WINDOW_COUNT : 0;
            if (format == FORMAT_WITH_SUMMARY_TOTALS) {
                windowCount = in.getLong();
                if (anyWindow ? windowCount < Partial.UNKNOWN_WINDOW_COUNT : windowCount != 0) {
                    throw new SerializationException("partial: window count " + windowCount + " with "
                            + (anyWindow ? "" : "no ") + "window summaries");
                }
            } else if (format == FORMAT_WITH_WINDOW_COUNT) {
                windowCount = in.getLong();
                if (windowCount < 0 || !anyWindow) {
                    throw new SerializationException("partial: window count " + windowCount + " with "
                            + (anyWindow ? "" : "no ") + "window summaries");
                }
            }
            if (in.hasRemaining()) {
                throw new SerializationException(in.remaining() + " bytes after the partial");
            }
            return new Partial(bucket, series.id(), series.kind(), count, sum, squares, min, max, sketch, points,
                    summaries, windowCount);
        } catch (BufferUnderflowException | IndexOutOfBoundsException | IllegalArgumentException e) {
            throw new SerializationException("corrupt partial (" + b.length + " bytes)", e);
        }
    }

    private static void writeSum(Writer out, ExactSum s) {
        double[] c = s.components();
        out.writeByte(c.length);
        for (double d : c) {
            out.writeDouble(d);
        }
    }

    private static ExactSum readSum(ByteBuffer in) {
        double[] c = new double[in.get()];
        for (int i = 0; i < c.length; i++) {
            c[i] = in.getDouble();
        }
        return ExactSum.of(c);
    }

    /** A length or count, which a corrupt record can make negative or larger than what is left. */
    private static int length(ByteBuffer in) {
        int n = in.getInt();
        if (n < 0 || n > in.remaining()) {
            throw new IndexOutOfBoundsException("length " + n + " at " + (in.position() - 4) + ", " + in.remaining()
                    + " bytes left");
        }
        return n;
    }

    private static String string(ByteBuffer in) {
        int n = length(in);
        String s = new String(in.array(), in.position(), n, StandardCharsets.UTF_8);
        in.position(in.position() + n);
        return s;
    }

    private static void skipString(ByteBuffer in) {
        int n = length(in);
        in.position(in.position() + n);
    }

    /**
     * A thread's recently decoded and encoded series, direct-mapped: decoding, by the bytes of the series part;
     * encoding, by the identity of the {@link SeriesId} (interned by the run processor and by decoding, so the
     * partials of one series mostly share one).
     */
    private static final class SeriesCache {

        record Entry(SeriesId id, SampleKind kind) {
        }

        private static final int SLOTS = 1024;
        private final byte[][] decodedBytes = new byte[SLOTS][];
        private final Entry[] decoded = new Entry[SLOTS];
        private final SeriesId[] encodedIds = new SeriesId[SLOTS];
        private final SampleKind[] encodedKinds = new SampleKind[SLOTS];
        private final byte[][] encodedBytes = new byte[SLOTS][];

        /** The series part at the reader's position (source, metric, kind, labels); leaves the reader after it. */
        Entry seriesAt(ByteBuffer in) {
            int start = in.position();
            skipString(in);
            skipString(in);
            in.get();
            for (int n = length(in), i = 0; i < 2 * n; i++) {
                skipString(in);
            }
            int end = in.position();
            byte[] buf = in.array();
            int slot = ByteStrings.slot(buf, start, end, SLOTS);
            byte[] known = decodedBytes[slot];
            if (known != null && Arrays.equals(known, 0, known.length, buf, start, end)) {
                return decoded[slot];
            }
            in.position(start);
            String source = string(in);
            String metric = string(in);
            SampleKind kind = KINDS[in.get()];
            Map<String, String> labels = new TreeMap<>();
            for (int n = length(in), i = 0; i < n; i++) {
                labels.put(string(in), string(in));
            }
            Entry entry = new Entry(SeriesId.of(source, metric, labels), kind);
            decodedBytes[slot] = Arrays.copyOfRange(buf, start, end);
            decoded[slot] = entry;
            return entry;
        }

        byte[] bytesOf(SeriesId id, SampleKind kind) {
            int slot = (System.identityHashCode(id) * 31 + kind.ordinal()) & (SLOTS - 1);
            if (encodedIds[slot] == id && encodedKinds[slot] == kind) {
                return encodedBytes[slot];
            }
            Writer out = new Writer(64);
            out.writeString(id.source());
            out.writeString(id.metric());
            out.writeByte(kind.ordinal());
            out.writeInt(id.labels().size());
            for (Map.Entry<String, String> e : id.labels().entrySet()) {
                out.writeString(e.getKey());
                out.writeString(e.getValue());
            }
            byte[] bytes = out.bytes();
            encodedIds[slot] = id;
            encodedKinds[slot] = kind;
            encodedBytes[slot] = bytes;
            return bytes;
        }
    }

    /** Big-endian writes into a growing array (DataOutputStream's layout, without its stream). */
    private static final class Writer {
        private byte[] buf;
        private int size;

        Writer(int capacity) {
            buf = new byte[capacity];
        }

        private void ensure(int more) {
            if (size + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
            }
        }

        void writeByte(int v) {
            ensure(1);
            buf[size++] = (byte) v;
        }

        void writeShort(int v) {
            ensure(2);
            buf[size++] = (byte) (v >>> 8);
            buf[size++] = (byte) v;
        }

        void writeInt(int v) {
            ensure(4);
            for (int shift = 24; shift >= 0; shift -= 8) {
                buf[size++] = (byte) (v >>> shift);
            }
        }

        void writeLong(long v) {
            ensure(8);
            for (int shift = 56; shift >= 0; shift -= 8) {
                buf[size++] = (byte) (v >>> shift);
            }
        }

        void writeDouble(double d) {
            writeLong(Double.doubleToRawLongBits(d));
        }

        void write(byte[] b) {
            ensure(b.length);
            System.arraycopy(b, 0, buf, size, b.length);
            size += b.length;
        }

        void writeString(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            writeInt(b.length);
            write(b);
        }

        byte[] bytes() {
            return size == buf.length ? buf : Arrays.copyOf(buf, size);
        }
    }
}
