package dev.caplab.streams.aggregate;

import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryWindow;
import dev.caplab.streams.StateStrings;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/** Versioned binary encoding of a {@link Partial} for the partials store and its changelog (format 1). */
public final class PartialSerde {

    private static final byte FORMAT = 1;

    private PartialSerde() {
    }

    public static Serde<Partial> serde() {
        Serializer<Partial> ser = (topic, p) -> p == null ? null : encode(p);
        Deserializer<Partial> de = (topic, b) -> b == null ? null : decode(b);
        return Serdes.serdeFrom(ser, de);
    }

    public static byte[] encode(Partial p) {
        try (ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
                DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeLong(p.bucketMicros);
            StateStrings.write(out, p.source);
            StateStrings.write(out, p.metric);
            out.writeByte(p.kind.ordinal());
            out.writeInt(p.labels.size());
            for (Map.Entry<String, String> e : p.labels.entrySet()) {
                StateStrings.write(out, e.getKey());
                StateStrings.write(out, e.getValue());
            }
            out.writeLong(p.count);
            writeSum(out, p.sum);
            writeSum(out, p.sumSquares);
            out.writeDouble(p.min);
            out.writeDouble(p.max);
            byte[] sketch = p.sketch.encode();
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
                    StateStrings.write(out, e.getKey());
                    out.writeDouble(e.getValue());
                }
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new SerializationException("cannot encode the partial of " + p.seriesKey(), e);
        }
    }

    public static Partial decode(byte[] b) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b))) {
            byte format = in.readByte();
            if (format != FORMAT) {
                throw new SerializationException("partial: unknown format " + format);
            }
            long bucket = in.readLong();
            String source = StateStrings.read(in);
            String metric = StateStrings.read(in);
            SampleKind kind = SampleKind.values()[in.readByte()];
            Map<String, String> labels = new TreeMap<>();
            for (int n = in.readInt(), i = 0; i < n; i++) {
                labels.put(StateStrings.read(in), StateStrings.read(in));
            }
            long count = in.readLong();
            ExactSum sum = readSum(in);
            ExactSum squares = readSum(in);
            double min = in.readDouble();
            double max = in.readDouble();
            QuantileSketch sketch = QuantileSketch.decode(in.readNBytes(in.readInt()));
            List<TimedValue> points = new ArrayList<>();
            for (int n = in.readShort(), i = 0; i < n; i++) {
                points.add(new TimedValue(in.readLong(), in.readDouble()));
            }
            List<Partial.SummaryPoint> summaries = new ArrayList<>();
            for (int n = in.readShort(), i = 0; i < n; i++) {
                long t = in.readLong();
                SummaryWindow w = SummaryWindow.values()[in.readByte()];
                Map<String, Double> q = new TreeMap<>();
                for (int m = in.readShort(), j = 0; j < m; j++) {
                    q.put(StateStrings.read(in), in.readDouble());
                }
                summaries.add(new Partial.SummaryPoint(t, w, q));
            }
            return new Partial(bucket, source, metric, kind, labels, count, sum, squares, min, max, sketch, points,
                    summaries);
        } catch (IOException | IndexOutOfBoundsException e) {
            throw new SerializationException("corrupt partial (" + b.length + " bytes)", e);
        }
    }

    private static void writeSum(DataOutputStream out, ExactSum s) throws IOException {
        double[] c = s.components();
        out.writeByte(c.length);
        for (double d : c) {
            out.writeDouble(d);
        }
    }

    private static ExactSum readSum(DataInputStream in) throws IOException {
        double[] c = new double[in.readByte()];
        for (int i = 0; i < c.length; i++) {
            c[i] = in.readDouble();
        }
        return ExactSum.of(c);
    }
}
