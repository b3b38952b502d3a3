package dev.caplab.streams.aggregate;

import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryWindow;
import dev.caplab.streams.StateStrings;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Versioned binary encoding of a bucket of {@link BufferedSample}s (the samples of one input batch within one time
 * bucket) for the sample buffer store and its changelog.
 */
public final class BufferedSampleSerde {

    /**
     * 1 was one sample per store entry; 2 a counted list of samples with {@code writeUTF} strings (at most 65,535
     * bytes: a longer label threw and stopped the topology); 3 writes strings as {@link StateStrings}. Format 2 is
     * still read, so buffered samples survive the upgrade.
     */
    private static final byte FORMAT = 3;
    private static final byte FORMAT_UTF = 2;

    private BufferedSampleSerde() {
    }

    public static Serde<List<BufferedSample>> serde() {
        Serializer<List<BufferedSample>> ser = (topic, s) -> s == null ? null : encode(s);
        Deserializer<List<BufferedSample>> de = (topic, b) -> b == null ? null : decode(topic, b);
        return Serdes.serdeFrom(ser, de);
    }

    static byte[] encode(List<BufferedSample> samples) {
        try (ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 + 80 * samples.size());
                DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeInt(samples.size());
            for (BufferedSample s : samples) {
                write(s, out);
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode a bucket of " + samples.size() + " buffered samples", e);
        }
    }

    /** The bytes {@code s} takes in an encoded bucket (format 3), computed without encoding it. */
    public static long encodedBytes(BufferedSample s) {
        long n = 8 + 4 + StateStrings.utf8Bytes(s.source()) + 4 + StateStrings.utf8Bytes(s.metric()) + 1 + 8 + 4;
        for (Map.Entry<String, String> e : s.labels().entrySet()) {
            n += 8 + StateStrings.utf8Bytes(e.getKey()) + StateStrings.utf8Bytes(e.getValue());
        }
        n += 1 + 2;
        for (String k : s.summaryQuantiles().keySet()) {
            n += 4 + StateStrings.utf8Bytes(k) + 8;
        }
        return n;
    }

    static List<BufferedSample> decode(String topic, byte[] b) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b))) {
            byte format = in.readByte();
            if (format != FORMAT && format != FORMAT_UTF) {
                throw new SerializationException("buffered samples on " + topic + ": unknown format " + format);
            }
            boolean legacy = format == FORMAT_UTF;
            int n = in.readInt();
            List<BufferedSample> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(read(in, legacy));
            }
            return out;
        } catch (IOException | IndexOutOfBoundsException e) {
            throw new SerializationException("corrupt buffered samples on " + topic + " (" + b.length + " bytes)", e);
        }
    }

    private static void write(BufferedSample s, DataOutputStream out) throws IOException {
        out.writeLong(s.timestampMicros());
        StateStrings.write(out, s.source());
        StateStrings.write(out, s.metric());
        out.writeByte(s.kind().ordinal());
        out.writeDouble(s.value());
        out.writeInt(s.labels().size());
        for (Map.Entry<String, String> e : new TreeMap<>(s.labels()).entrySet()) {
            StateStrings.write(out, e.getKey());
            StateStrings.write(out, e.getValue());
        }
        out.writeByte(s.summaryWindow() == null ? -1 : s.summaryWindow().ordinal());
        out.writeShort(s.summaryQuantiles().size());
        for (Map.Entry<String, Double> e : new TreeMap<>(s.summaryQuantiles()).entrySet()) {
            StateStrings.write(out, e.getKey());
            out.writeDouble(e.getValue());
        }
    }

    private static BufferedSample read(DataInputStream in, boolean legacy) throws IOException {
        StateStrings.Reader strings = StateStrings.Reader.of(legacy);
        long t = in.readLong();
        String source = strings.read(in);
        String metric = strings.read(in);
        SampleKind kind = SampleKind.values()[in.readByte()];
        double value = in.readDouble();
        Map<String, String> labels = new TreeMap<>();
        for (int n = legacy ? in.readShort() : in.readInt(), i = 0; i < n; i++) {
            labels.put(strings.read(in), strings.read(in));
        }
        byte w = in.readByte();
        Map<String, Double> quantiles = new TreeMap<>();
        for (int n = in.readShort(), i = 0; i < n; i++) {
            quantiles.put(strings.read(in), in.readDouble());
        }
        return new BufferedSample(t, source, metric, kind, value, labels, w < 0 ? null : SummaryWindow.values()[w],
                quantiles);
    }
}
