package dev.caplab.streams.aggregate;

import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryWindow;
import dev.caplab.schema.text.ByteStrings;
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
 * Versioned binary encoding of a {@link Partial} for the partials store and its changelog (format 1): big-endian
 * numbers and strings as an int byte length and UTF-8 ({@link dev.caplab.streams.StateStrings}' form), written and
 * read straight on byte arrays.
 *
 * <p>Every fold and every step close reads partials back, and the series part of each (source, metric, kind and
 * labels, ~100-200 bytes) repeats from one second to the next: decoded string by string into a new sorted map it
 * was a third of this serde's time (JFR, PipelineBench 2M). A thread's decoder remembers the series of recently
 * read bytes, so equal bytes give the one {@link SeriesId} (its key computed once), and its encoder the bytes of
 * recently written series.
 */
public final class PartialSerde {

    private static final byte FORMAT = 1;
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
                + p.points.size() * 16 + 2 + p.summaries.size() * 64);
        out.writeByte(FORMAT);
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
        }
        return out.bytes();
    }

    public static Partial decode(byte[] b) {
        try {
            Reader in = new Reader(b);
            int format = in.readByte();
            if (format != FORMAT) {
                throw new SerializationException("partial: unknown format " + format);
            }
            long bucket = in.readLong();
            SeriesCache.Entry series = SERIES.get().seriesAt(in);
            long count = in.readLong();
            ExactSum sum = readSum(in);
            ExactSum squares = readSum(in);
            double min = in.readDouble();
            double max = in.readDouble();
            int sketchLength = in.readLength();
            QuantileSketch sketch = QuantileSketch.decode(b, in.pos, sketchLength);
            in.pos += sketchLength;
            List<TimedValue> points = new ArrayList<>();
            for (int n = in.readShort(), i = 0; i < n; i++) {
                points.add(new TimedValue(in.readLong(), in.readDouble()));
            }
            List<Partial.SummaryPoint> summaries = new ArrayList<>();
            for (int n = in.readShort(), i = 0; i < n; i++) {
                long t = in.readLong();
                SummaryWindow w = WINDOWS[in.readByte()];
                Map<String, Double> q = new TreeMap<>();
                for (int m = in.readShort(), j = 0; j < m; j++) {
                    q.put(in.readString(), in.readDouble());
                }
                summaries.add(new Partial.SummaryPoint(t, w, q));
            }
            if (in.pos != b.length) {
                throw new SerializationException((b.length - in.pos) + " bytes after the partial");
            }
            return new Partial(bucket, series.id(), series.kind(), count, sum, squares, min, max, sketch, points,
                    summaries);
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
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

    private static ExactSum readSum(Reader in) {
        double[] c = new double[in.readByte()];
        for (int i = 0; i < c.length; i++) {
            c[i] = in.readDouble();
        }
        return ExactSum.of(c);
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
        Entry seriesAt(Reader in) {
            int start = in.pos;
            in.skipString();
            in.skipString();
            in.readByte();
            for (int n = in.readCount(), i = 0; i < 2 * n; i++) {
                in.skipString();
            }
            int end = in.pos;
            int slot = ByteStrings.slot(in.buf, start, end, SLOTS);
            byte[] known = decodedBytes[slot];
            if (known != null && Arrays.equals(known, 0, known.length, in.buf, start, end)) {
                return decoded[slot];
            }
            in.pos = start;
            String source = in.readString();
            String metric = in.readString();
            SampleKind kind = KINDS[in.readByte()];
            Map<String, String> labels = new TreeMap<>();
            for (int n = in.readCount(), i = 0; i < n; i++) {
                labels.put(in.readString(), in.readString());
            }
            Entry entry = new Entry(SeriesId.of(source, metric, labels), kind);
            decodedBytes[slot] = Arrays.copyOfRange(in.buf, start, end);
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

    /** Big-endian reads with bounds checks: running off the end is an IndexOutOfBoundsException. */
    private static final class Reader {
        final byte[] buf;
        int pos;

        Reader(byte[] buf) {
            this.buf = buf;
        }

        private int take(int n) {
            if (n > buf.length - pos) {
                throw new IndexOutOfBoundsException(n + " bytes at " + pos + " of " + buf.length);
            }
            int at = pos;
            pos += n;
            return at;
        }

        int readByte() {
            return buf[take(1)];
        }

        int readShort() {
            int at = take(2);
            return (short) ((buf[at] & 0xFF) << 8 | buf[at + 1] & 0xFF);
        }

        int readInt() {
            int at = take(4);
            return (buf[at] & 0xFF) << 24 | (buf[at + 1] & 0xFF) << 16 | (buf[at + 2] & 0xFF) << 8
                    | buf[at + 3] & 0xFF;
        }

        long readLong() {
            int at = take(8);
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = v << 8 | buf[at + i] & 0xFFL;
            }
            return v;
        }

        double readDouble() {
            return Double.longBitsToDouble(readLong());
        }

        /** A count or length, which a corrupt record can make negative or larger than what is left. */
        int readLength() {
            int n = readInt();
            if (n < 0 || n > buf.length - pos) {
                throw new IndexOutOfBoundsException("length " + n + " at " + (pos - 4) + ", " + (buf.length - pos)
                        + " bytes left");
            }
            return n;
        }

        int readCount() {
            int n = readInt();
            if (n < 0) {
                throw new IndexOutOfBoundsException("count " + n + " at " + (pos - 4));
            }
            return n;
        }

        String readString() {
            int n = readLength();
            return new String(buf, take(n), n, StandardCharsets.UTF_8);
        }

        void skipString() {
            take(readLength());
        }
    }
}
