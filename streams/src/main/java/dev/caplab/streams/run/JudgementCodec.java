package dev.caplab.streams.run;

import dev.caplab.analysis.Finite;
import dev.caplab.analysis.conclusion.ResourceEstimates;
import dev.caplab.analysis.conclusion.ResourceUse;
import dev.caplab.analysis.conclusion.StepJudgement;
import dev.caplab.analysis.conclusion.StepStatus;
import dev.caplab.analysis.fit.LinearFit;
import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.schema.event.RunThroughputLimit;
import dev.caplab.streams.Micros;
import dev.caplab.streams.StateStrings;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * The run-state encoding of what the run conclusion needs: step judgements (format 4; with the load generator's CPU
 * from format 6), capacity estimates (format 4) and the throughput limit (format 6).
 */
final class JudgementCodec {

    private JudgementCodec() {
    }

    static void write(DataOutputStream out, StepJudgement j) throws IOException {
        out.writeBoolean(j != null);
        if (j == null) {
            return;
        }
        out.writeInt(j.stepIndex());
        writeOptional(out, j.x());
        out.writeByte(j.verdict().ordinal());
        out.writeBoolean(j.contaminated());
        out.writeBoolean(j.overMargin().isPresent());
        if (j.overMargin().isPresent()) {
            ResourceUse u = j.overMargin().get();
            StateStrings.write(out, u.source());
            StateStrings.write(out, u.metric());
            out.writeDouble(u.used());
            out.writeDouble(u.ceiling());
        }
        writeOptional(out, j.loadGeneratorCpuPercent());
    }

    /** A judgement; {@code withGeneratorCpu} for format 6 on, which keeps the load generator's CPU. */
    static StepJudgement readJudgement(DataInputStream in, StateStrings.Reader strings, boolean withGeneratorCpu)
            throws IOException {
        if (!in.readBoolean()) {
            return null;
        }
        int index = in.readInt();
        OptionalDouble x = readOptional(in);
        StepStatus verdict = StepStatus.values()[in.readByte()]; // PASSED, FAILED, NOT_JUDGED: ordinals 0–2
        boolean contaminated = in.readBoolean();
        Optional<ResourceUse> over = in.readBoolean()
                ? Optional.of(new ResourceUse(strings.read(in), strings.read(in), in.readDouble(), in.readDouble()))
                : Optional.empty();
        return new StepJudgement(index, x, verdict, contaminated, over,
                withGeneratorCpu ? readOptional(in) : OptionalDouble.empty());
    }

    /**
     * What a refit found about one resource; its safe capacity and role are the conclusion's and not kept. An unknown
     * figure of its line is written as NaN.
     */
    static void write(DataOutputStream out, ResourceEstimate e) throws IOException {
        StateStrings.write(out, e.getSource());
        StateStrings.write(out, e.getMetric());
        LinearFit l = ResourceEstimates.preKnee(e);
        out.writeDouble(l.base());
        out.writeDouble(l.slope());
        out.writeDouble(l.baseVariance());
        out.writeDouble(l.slopeVariance());
        out.writeDouble(l.covariance());
        out.writeDouble(l.residualStdErr());
        out.writeInt(l.degreesOfFreedom());
        out.writeInt(l.stepCount());
        out.writeDouble(l.rSquared());
        out.writeDouble(e.getFromX());
        out.writeDouble(e.getToX());
        writeOptional(out, e.getCeiling());
        writeOptional(out, e.getKneeX());
        out.writeBoolean(e.getCliff());
        out.writeInt(e.getCliffStepIndex() == null ? -1 : e.getCliffStepIndex());
        writeOptional(out, e.getLastStableX());
    }

    static ResourceEstimate readEstimate(DataInputStream in, StateStrings.Reader strings) throws IOException {
        String source = strings.read(in);
        String metric = strings.read(in);
        LinearFit line = new LinearFit(in.readDouble(), in.readDouble(), in.readDouble(), in.readDouble(),
                in.readDouble(), in.readDouble(), in.readInt(), in.readInt(), in.readDouble());
        double fromX = in.readDouble();
        double toX = in.readDouble();
        OptionalDouble ceiling = readOptional(in);
        OptionalDouble knee = readOptional(in);
        boolean cliff = in.readBoolean();
        int cliffStep = in.readInt();
        return ResourceEstimates.of(source, metric, line, fromX, toX, ceiling, knee, cliff,
                cliffStep < 0 ? OptionalInt.empty() : OptionalInt.of(cliffStep), readOptional(in));
    }

    /** A throughput limit as state keeps it: an unknown figure is written as NaN (the bytes of format 6). */
    static void write(DataOutputStream out, RunThroughputLimit l) throws IOException {
        out.writeBoolean(l != null);
        if (l == null) {
            return;
        }
        out.writeDouble(l.getKneeX());
        out.writeDouble(Finite.orNaN(l.getKneeLower95()));
        out.writeDouble(Finite.orNaN(l.getKneeUpper95()));
        out.writeDouble(l.getPlateauRatePerSecond());
        out.writeDouble(l.getSlopeBeforePerX());
        out.writeDouble(l.getSlopeAfterPerX());
        out.writeDouble(Finite.orNaN(l.getBreakpointPValue()));
        out.writeInt(l.getStepsUsed());
        out.writeLong(Micros.of(l.getFittedAt()));
    }

    static RunThroughputLimit readThroughputLimit(DataInputStream in) throws IOException {
        if (!in.readBoolean()) {
            return null;
        }
        return RunThroughputLimit.newBuilder().setKneeX(in.readDouble())
                .setKneeLower95(Finite.orNull(in.readDouble())).setKneeUpper95(Finite.orNull(in.readDouble()))
                .setPlateauRatePerSecond(in.readDouble()).setSlopeBeforePerX(in.readDouble())
                .setSlopeAfterPerX(in.readDouble()).setBreakpointPValue(Finite.orNull(in.readDouble()))
                .setStepsUsed(in.readInt()).setFittedAt(Micros.toInstant(in.readLong())).build();
    }

    private static void writeOptional(DataOutputStream out, OptionalDouble v) throws IOException {
        out.writeBoolean(v.isPresent());
        if (v.isPresent()) {
            out.writeDouble(v.getAsDouble());
        }
    }

    private static void writeOptional(DataOutputStream out, Double v) throws IOException {
        writeOptional(out, Finite.optional(v));
    }

    private static OptionalDouble readOptional(DataInputStream in) throws IOException {
        return in.readBoolean() ? OptionalDouble.of(in.readDouble()) : OptionalDouble.empty();
    }
}
