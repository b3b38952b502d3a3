package dev.caplab.streams.conclusion;

import dev.caplab.analysis.capacity.CapacityEstimate;
import dev.caplab.analysis.capacity.EffectiveEgress;
import dev.caplab.analysis.capacity.ResourceEstimate;
import dev.caplab.analysis.conclusion.Bottleneck;
import dev.caplab.analysis.conclusion.RunConclusion;
import dev.caplab.analysis.conclusion.StepJudgement;
import dev.caplab.analysis.fit.LinearFit;
import dev.caplab.analysis.throughput.GeneratorLimit;
import dev.caplab.analysis.throughput.ThroughputLimit;
import dev.caplab.schema.event.BottleneckRule;
import dev.caplab.schema.event.RunBottleneck;
import dev.caplab.schema.event.RunEgressCeiling;
import dev.caplab.schema.event.RunThroughputLimit;
import dev.caplab.schema.event.RunWarning;
import dev.caplab.streams.Micros;
import dev.caplab.streams.fit.FittedThroughputLimit;
import java.util.Optional;
import java.util.OptionalDouble;

/** The analysis' run conclusion as the {@code RunConclusion} event; non-finite numbers become null. */
public final class ConclusionAdapter {

    private ConclusionAdapter() {
    }

    /** The role of a series (source, metric), as its label ({@code SourceRole#label}). */
    @FunctionalInterface
    public interface Roles {
        String of(String source, String metric);
    }

    /**
     * The event, with each resource's and the bottleneck's source role from {@code roles}, and the throughput
     * limit's fit (its step count and time) from {@code throughputFit}.
     */
    public static dev.caplab.schema.event.RunConclusion toEvent(String runId, RunConclusion c, boolean runClosed,
            long concludedAtMicros, long version, Roles roles, Optional<FittedThroughputLimit> throughputFit) {
        Optional<StepJudgement> pass = c.stable().lastPassing();
        Optional<StepJudgement> fail = c.stable().firstFailing();
        return dev.caplab.schema.event.RunConclusion.newBuilder()
                .setRunId(runId)
                .setMaxStableX(orNull(c.stable().maxStableX()))
                .setMaxStableStepIndex(pass.map(StepJudgement::stepIndex).orElse(null))
                .setFirstFailingX(orNull(c.stable().firstFailingX()))
                .setFirstFailingStepIndex(fail.map(StepJudgement::stepIndex).orElse(null))
                .setStepsJudged(c.stepsJudged())
                .setStepsSkipped(c.stepsSkipped())
                .setBottleneck(c.bottleneck().map(b -> bottleneck(b, roles.of(b.source(), b.metric()))).orElse(null))
                .setMargin(c.margin())
                .setResources(c.resources().stream().map(e -> estimate(e, c.margin(), roles.of(e.source(), e.metric())))
                        .toList())
                .setRunClosed(runClosed)
                .setModel(c.modelName() + "/" + c.modelVersion())
                .setConcludedAt(Micros.toInstant(concludedAtMicros))
                .setVersion(version)
                .setWarnings(c.warnings().stream().map(w -> RunWarning.newBuilder().setKind(w.kind().name())
                        .setMessage(w.message()).build()).toList())
                .setThroughputLimit(c.throughputLimit().map(l -> throughputLimit(l, c.generatorLimit(),
                        throughputFit.orElseThrow(() -> new IllegalArgumentException("run " + runId
                                + ": a throughput limit without its fit"))))
                        .orElse(null))
                .build();
    }

    /** The run's effective egress ceiling as the event carries it. */
    public static RunEgressCeiling egressCeiling(EffectiveEgress e) {
        return RunEgressCeiling.newBuilder().setMbps(e.mbps()).setSource(e.source().name())
                .setMeasuredAt(e.measuredAt().orElse(null)).build();
    }

    private static RunThroughputLimit throughputLimit(ThroughputLimit l, Optional<GeneratorLimit> generator,
            FittedThroughputLimit fit) {
        return RunThroughputLimit.newBuilder().setKneeX(l.kneeX())
                .setKneeLower95(finiteOrNull(l.kneeLower95())).setKneeUpper95(finiteOrNull(l.kneeUpper95()))
                .setPlateauRatePerSecond(l.plateauRatePerSecond()).setSlopeBeforePerX(l.slopeBeforePerX())
                .setSlopeAfterPerX(l.slopeAfterPerX()).setBreakpointPValue(finiteOrNull(l.breakpointPValue()))
                .setStepsUsed(fit.stepsUsed()).setFittedAt(Micros.toInstant(fit.fittedAtMicros()))
                .setGeneratorSaturatedAtX(generator.map(GeneratorLimit::x).orElse(null))
                .setGeneratorCpuPercent(generator.map(GeneratorLimit::cpuPercent).orElse(null)).build();
    }

    private static RunBottleneck bottleneck(Bottleneck b, String role) {
        return RunBottleneck.newBuilder().setSource(b.source()).setMetric(b.metric()).setRole(role)
                .setRule(BottleneckRule.valueOf(b.rule().name())).setValue(b.value())
                .setStepIndex(b.stepIndex().isPresent() ? b.stepIndex().getAsInt() : null).build();
    }

    private static dev.caplab.schema.event.ResourceEstimate estimate(ResourceEstimate e, double margin,
            String role) {
        LinearFit line = e.preKnee();
        Optional<CapacityEstimate> capacity = e.capacityAt(margin);
        Optional<ResourceEstimate.Interval> interval = e.safeCapacityInterval95(margin);
        return dev.caplab.schema.event.ResourceEstimate.newBuilder()
                .setSource(e.source()).setMetric(e.metric()).setRole(role)
                .setIntercept(line.base()).setSlope(line.slope())
                .setInterceptVariance(finiteOrNull(line.baseVariance()))
                .setSlopeVariance(finiteOrNull(line.slopeVariance()))
                .setCovariance(finiteOrNull(line.covariance()))
                .setResidualStdErr(finiteOrNull(line.residualStdErr()))
                .setDegreesOfFreedom(line.degreesOfFreedom()).setPreKneeSteps(line.stepCount())
                .setRSquared(finiteOrNull(line.rSquared()))
                .setFromX(e.fromX()).setToX(e.toX())
                .setCeiling(orNull(e.ceiling()))
                .setSafeCapacityX(capacity.map(CapacityEstimate::safeX).map(ConclusionAdapter::finiteOrNull)
                        .orElse(null))
                .setSafeCapacityStdErr(capacity.map(CapacityEstimate::xMaxStdErr)
                        .map(ConclusionAdapter::finiteOrNull).orElse(null))
                .setSafeCapacityLower95(interval.map(ResourceEstimate.Interval::lower).orElse(null))
                .setSafeCapacityUpper95(interval.map(ResourceEstimate.Interval::upper).orElse(null))
                .setCappedByCliff(capacity.map(CapacityEstimate::cappedByCliff).orElse(false))
                .setKneeX(orNull(e.kneeX()))
                .setCliff(e.cliff())
                .setCliffStepIndex(e.cliffStepIndex().isPresent() ? e.cliffStepIndex().getAsInt() : null)
                .setLastStableX(orNull(e.lastStableX()))
                .build();
    }

    private static Double orNull(OptionalDouble v) {
        return v.isPresent() && Double.isFinite(v.getAsDouble()) ? v.getAsDouble() : null;
    }

    private static Double finiteOrNull(double v) {
        return Double.isFinite(v) ? v : null;
    }
}
