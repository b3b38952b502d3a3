package dev.caplab.streams.run;

import dev.caplab.analysis.conclusion.StepJudgement;
import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.schema.event.RunThroughputLimit;
import dev.caplab.schema.event.RunStarted;
import dev.caplab.schema.serde.EventSerdes;
import dev.caplab.schema.text.Utf8Bytes;
import dev.caplab.streams.StateStrings;
import dev.caplab.streams.fit.FitPoint;
import dev.caplab.streams.step.LevelChanges;
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

/**
 * Versioned binary encoding of {@link RunState} for the run-state store and its changelog. Format 1 wrote strings
 * with {@code writeUTF} (at most 65,535 bytes) and every load-level sample; format 2 writes {@link StateStrings},
 * level changes only, and the input time and alerted limits; format 3 adds the amendment bookkeeping (step marks,
 * dirty steps, revisions, lateness counts); format 4 adds each closed step's judgement and the run's capacity
 * estimates and conclusion revision (a format-3 state concludes from the steps it closes next); format 5 adds the
 * step ends that arrived before their starts and which marks belong to steps that vanished; format 6 adds each
 * judgement's load-generator CPU and the latest fit's throughput limit (an older state concludes without them until
 * its next refit and the steps it closes next). Formats 1 and 2 are
 * read and migrated (levels compacted; closed steps without a
 * mark are left as they were: the partials they would be re-derived from did not exist before format 3).
 */
public final class RunStateSerde {

    private static final byte FORMAT = 6;
    private static final byte FORMAT_5 = 5;
    private static final byte FORMAT_4 = 4;
    private static final byte FORMAT_3 = 3;
    private static final byte FORMAT_2 = 2;
    private static final byte FORMAT_UTF = 1;
    private static final String TOPIC = "run-state";

    private RunStateSerde() {
    }

    static byte[] encode(RunState s) {
        try (ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
                DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            StateStrings.write(out, s.runId());
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
                StateStrings.write(out, p.metric());
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
                StateStrings.write(out, p.source());
                StateStrings.write(out, p.metric());
                out.writeInt(p.stepIndex());
                out.writeDouble(p.x());
                out.writeDouble(p.y());
                out.writeLong(p.count());
            }
            out.writeInt(s.cliffs().size());
            for (String c : new TreeSet<>(s.cliffs())) {
                StateStrings.write(out, c);
            }
            out.writeBoolean(s.runClosed());
            out.writeBoolean(s.unassignedDirty());
            out.writeLong(s.unassignedVersion());
            out.writeLong(s.lateSamples());
            out.writeLong(s.lastInputWallMillis());
            out.writeInt(s.alertedLimits());
            out.writeInt(s.marks().size());
            for (Map.Entry<Integer, StepMark> e : new TreeMap<>(s.marks()).entrySet()) {
                StepWindow w = e.getValue().window();
                out.writeInt(e.getKey());
                out.writeInt(w.index());
                writeLoad(out, w.load());
                out.writeLong(w.startMicros());
                out.writeLong(w.endMicros());
                out.writeLong(w.warmupMicros());
                out.writeBoolean(w.inferred());
                out.writeLong(e.getValue().revision());
                out.writeLong(e.getValue().lateCount());
                JudgementCodec.write(out, e.getValue().judgement());
                out.writeBoolean(e.getValue().vanished());
            }
            out.writeInt(s.dirtySteps().size());
            for (int i : new TreeSet<>(s.dirtySteps())) {
                out.writeInt(i);
            }
            out.writeBoolean(s.baselineDirty());
            out.writeLong(s.fitRevision());
            out.writeLong(s.baselineRevision());
            out.writeLong(s.beyondLateness());
            out.writeLong(s.latenessEmitted());
            out.writeLong(s.latenessRevision());
            out.writeLong(s.lastAmendWallMillis());
            out.writeBoolean(s.expired());
            out.writeInt(s.estimates().size());
            for (ResourceEstimate e : s.estimates()) {
                JudgementCodec.write(out, e);
            }
            out.writeLong(s.conclusionRevision());
            out.writeInt(s.pendingEnds().size());
            for (Map.Entry<Integer, Long> e : new TreeMap<>(s.pendingEnds()).entrySet()) {
                out.writeInt(e.getKey());
                out.writeLong(e.getValue());
            }
            JudgementCodec.write(out, s.throughputLimit());
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new SerializationException("cannot encode run state of " + s.runId(), e);
        }
    }

    /**
     * Encoded bytes of the derived parts {@link RunStateBudget} may shed (baselines, fit points, cliffs), computed
     * without encoding.
     */
    static long derivedBytes(RunState s) {
        long n = 0;
        for (String k : s.baseline().keySet()) {
            n += 4 + Utf8Bytes.of(k) + 8;
        }
        for (FitPoint p : s.fitPoints()) {
            n += 8 + Utf8Bytes.of(p.source()) + Utf8Bytes.of(p.metric()) + 4 + 8 + 8 + 8;
        }
        for (String c : s.cliffs()) {
            n += 4 + Utf8Bytes.of(c);
        }
        return n;
    }

    static RunState decode(byte[] b, int maxLevelChanges) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b))) {
            byte format = in.readByte();
            if (format != FORMAT && format != FORMAT_5 && format != FORMAT_4 && format != FORMAT_3
                    && format != FORMAT_2 && format != FORMAT_UTF) {
                throw new SerializationException("run state: unknown format " + format);
            }
            StateStrings.Reader strings = StateStrings.Reader.of(format == FORMAT_UTF);
            String runId = strings.read(in);
            byte[] startedBytes = in.readNBytes(in.readInt());
            RunStarted started = startedBytes.length == 0 ? null
                    : EventSerdes.runStarted().deserialize(TOPIC, startedBytes);
            List<StepWindow> declared = new ArrayList<>();
            for (int n = in.readInt(), i = 0; i < n; i++) {
                declared.add(new StepWindow(in.readInt(), readLoad(in, strings), in.readLong(), in.readLong(),
                        in.readLong(), in.readBoolean()));
            }
            Map<Integer, Long> endSeen = new TreeMap<>();
            for (int n = in.readInt(), i = 0; i < n; i++) {
                endSeen.put(in.readInt(), in.readLong());
            }
            List<LevelPoint> levels = new ArrayList<>();
            for (int n = in.readInt(), i = 0; i < n; i++) {
                levels.add(new LevelPoint(strings.read(in), in.readLong(), in.readDouble()));
            }
            if (format == FORMAT_UTF) {
                levels = LevelChanges.of(levels, maxLevelChanges);
            }
            long maxEvent = in.readLong();
            long runEnded = in.readLong();
            long runEndSeen = in.readLong();
            int closed = in.readInt();
            Map<String, Double> baseline = readLoad(in, strings);
            List<FitPoint> points = new ArrayList<>();
            for (int n = in.readInt(), i = 0; i < n; i++) {
                points.add(new FitPoint(strings.read(in), strings.read(in), in.readInt(), in.readDouble(),
                        in.readDouble(), in.readLong()));
            }
            Set<String> cliffs = new TreeSet<>();
            for (int n = in.readInt(), i = 0; i < n; i++) {
                cliffs.add(strings.read(in));
            }
            boolean runClosed = in.readBoolean();
            boolean dirty = in.readBoolean();
            long unassignedVersion = in.readLong();
            long late = in.readLong();
            long lastInput = format != FORMAT_UTF ? in.readLong() : 0;
            int alerted = format != FORMAT_UTF ? in.readInt() : 0;
            Map<Integer, StepMark> marks = new TreeMap<>();
            Set<Integer> dirtySteps = new TreeSet<>();
            boolean baselineDirty = false;
            long[] counters = new long[6];
            boolean expired = false;
            List<ResourceEstimate> estimates = new ArrayList<>();
            long conclusionRevision = 0;
            if (format == FORMAT || format == FORMAT_5 || format == FORMAT_4 || format == FORMAT_3) {
                for (int n = in.readInt(), i = 0; i < n; i++) {
                    int key = in.readInt();
                    StepWindow w = new StepWindow(in.readInt(), readLoad(in, strings), in.readLong(), in.readLong(),
                            in.readLong(), in.readBoolean());
                    long revision = in.readLong();
                    long lateCount = in.readLong();
                    StepJudgement judgement = format != FORMAT_3
                            ? JudgementCodec.readJudgement(in, strings, format == FORMAT) : null;
                    marks.put(key, new StepMark(w, revision, lateCount, judgement,
                            (format == FORMAT || format == FORMAT_5) && in.readBoolean()));
                }
                for (int n = in.readInt(), i = 0; i < n; i++) {
                    dirtySteps.add(in.readInt());
                }
                baselineDirty = in.readBoolean();
                for (int i = 0; i < counters.length; i++) {
                    counters[i] = in.readLong();
                }
                expired = in.readBoolean();
            }
            if (format == FORMAT || format == FORMAT_5 || format == FORMAT_4) {
                for (int n = in.readInt(), i = 0; i < n; i++) {
                    estimates.add(JudgementCodec.readEstimate(in, strings));
                }
                conclusionRevision = in.readLong();
            }
            Map<Integer, Long> pendingEnds = new TreeMap<>();
            if (format == FORMAT || format == FORMAT_5) {
                for (int n = in.readInt(), i = 0; i < n; i++) {
                    pendingEnds.put(in.readInt(), in.readLong());
                }
            }
            RunThroughputLimit throughputLimit = format == FORMAT ? JudgementCodec.readThroughputLimit(in) : null;
            return new RunState(runId, started, declared, endSeen, levels, maxEvent, runEnded, runEndSeen, closed,
                    baseline, points, cliffs, runClosed, dirty, unassignedVersion, late, lastInput, alerted, marks,
                    dirtySteps, baselineDirty, counters[0], counters[1], counters[2], counters[3], counters[4],
                    counters[5], expired, estimates, conclusionRevision, pendingEnds, throughputLimit);
        } catch (IOException | IllegalArgumentException e) {
            throw new SerializationException("corrupt run state (" + b.length + " bytes)", e);
        }
    }

    private static void writeLoad(DataOutputStream out, Map<String, Double> map) throws IOException {
        out.writeInt(map.size());
        for (Map.Entry<String, Double> e : new TreeMap<>(map).entrySet()) {
            StateStrings.write(out, e.getKey());
            out.writeDouble(e.getValue());
        }
    }

    private static Map<String, Double> readLoad(DataInputStream in, StateStrings.Reader strings) throws IOException {
        Map<String, Double> map = new TreeMap<>();
        for (int n = in.readInt(), i = 0; i < n; i++) {
            map.put(strings.read(in), in.readDouble());
        }
        return map;
    }
}
