package dev.caplab.streams.run;

import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.streams.fit.FitPoint;
import dev.caplab.streams.step.LevelPoint;
import dev.caplab.streams.step.StepWindow;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/** Versioned binary encoding of {@link RunState} for the run-state store and its changelog. */
public final class RunStateSerde {

    private static final byte FORMAT = 1;
    private static final String TOPIC = "run-state";

    private RunStateSerde() {
    }

    public static Serde<RunState> serde() {
        return Serdes.serdeFrom((t, s) -> s == null ? null : encode(s), (t, b) -> b == null ? null : decode(b));
    }

    static byte[] encode(RunState s) {
        try (ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
                DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeUTF(s.runId());
            byte[] started = s.started() == null ? new byte[0] : EventSerdes.runStarted().serialize(TOPIC, s.started());
            out.writeInt(started.length);
            out.write(started);
            out.writeInt(s.declared().size());
            for (StepWindow w : s.declared()) {
                out.writeInt(w.index());
                writeLoad(out, w.load());
                out.writeLong(w.startMicros());
                out.writeLong(w.endMicros());
                out.writeLong(w.warmupMicros());
                out.writeBoolean(w.inferred());
            }
            out.writeInt(s.endSeenWallMillis().size());
            for (Map.Entry<Integer, Long> e : new TreeMap<>(s.endSeenWallMillis()).entrySet()) {
                out.writeInt(e.getKey());
                out.writeLong(e.getValue());
            }
            out.writeInt(s.levels().size());
            for (LevelPoint p : s.levels()) {
                out.writeUTF(p.metric());
                out.writeLong(p.timestampMicros());
                out.writeDouble(p.level());
            }
            out.writeLong(s.maxEventMicros());
            out.writeLong(s.runEndedMicros());
            out.writeLong(s.runEndSeenWallMillis());
            out.writeInt(s.closedSteps());
            writeLoad(out, s.baseline());
            out.writeInt(s.fitPoints().size());
            for (FitPoint p : s.fitPoints()) {
                out.writeUTF(p.source());
                out.writeUTF(p.metric());
                out.writeInt(p.stepIndex());
                out.writeDouble(p.x());
                out.writeDouble(p.y());
                out.writeLong(p.count());
            }
            out.writeInt(s.cliffs().size());
            for (String c : new TreeSet<>(s.cliffs())) {
                out.writeUTF(c);
            }
            out.writeBoolean(s.runClosed());
            out.writeBoolean(s.unassignedDirty());
            out.writeLong(s.unassignedVersion());
            out.writeLong(s.lateSamples());
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new SerializationException("cannot encode run state of " + s.runId(), e);
        }
    }

    static RunState decode(byte[] b) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b))) {
            byte format = in.readByte();
            if (format != FORMAT) {
                throw new SerializationException("run state: unknown format " + format);
            }
            String runId = in.readUTF();
            byte[] startedBytes = in.readNBytes(in.readInt());
            RunStarted started = startedBytes.length == 0 ? null
                    : EventSerdes.runStarted().deserialize(TOPIC, startedBytes);
            List<StepWindow> declared = new ArrayList<>();
            for (int n = in.readInt(), i = 0; i < n; i++) {
                declared.add(new StepWindow(in.readInt(), readLoad(in), in.readLong(), in.readLong(), in.readLong(),
                        in.readBoolean()));
            }
            Map<Integer, Long> endSeen = new TreeMap<>();
            for (int n = in.readInt(), i = 0; i < n; i++) {
                endSeen.put(in.readInt(), in.readLong());
            }
            List<LevelPoint> levels = new ArrayList<>();
            for (int n = in.readInt(), i = 0; i < n; i++) {
                levels.add(new LevelPoint(in.readUTF(), in.readLong(), in.readDouble()));
            }
            long maxEvent = in.readLong();
            long runEnded = in.readLong();
            long runEndSeen = in.readLong();
            int closed = in.readInt();
            Map<String, Double> baseline = readLoad(in);
            List<FitPoint> points = new ArrayList<>();
            for (int n = in.readInt(), i = 0; i < n; i++) {
                points.add(new FitPoint(in.readUTF(), in.readUTF(), in.readInt(), in.readDouble(), in.readDouble(),
                        in.readLong()));
            }
            Set<String> cliffs = new TreeSet<>();
            for (int n = in.readInt(), i = 0; i < n; i++) {
                cliffs.add(in.readUTF());
            }
            return new RunState(runId, started, declared, endSeen, levels, maxEvent, runEnded, runEndSeen, closed,
                    baseline, points, cliffs, in.readBoolean(), in.readBoolean(), in.readLong(), in.readLong());
        } catch (IOException | IllegalArgumentException e) {
            throw new SerializationException("corrupt run state (" + b.length + " bytes)", e);
        }
    }

    private static void writeLoad(DataOutputStream out, Map<String, Double> map) throws IOException {
        out.writeInt(map.size());
        for (Map.Entry<String, Double> e : new TreeMap<>(map).entrySet()) {
            out.writeUTF(e.getKey());
            out.writeDouble(e.getValue());
        }
    }

    private static Map<String, Double> readLoad(DataInputStream in) throws IOException {
        Map<String, Double> map = new TreeMap<>();
        for (int n = in.readInt(), i = 0; i < n; i++) {
            map.put(in.readUTF(), in.readDouble());
        }
        return map;
    }
}
