package dev.caplab.analysis.conclusion;

import dev.caplab.analysis.Finite;
import dev.caplab.analysis.capacity.CapacityPlan;
import dev.caplab.analysis.throughput.GeneratorLimit;
import dev.caplab.analysis.throughput.ThroughputLimits;
import dev.caplab.schema.event.BottleneckRule;
import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.schema.event.RunBottleneck;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunThroughputLimit;
import dev.caplab.schema.vocabulary.MetricNames;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The one place a run is concluded. Streams calls {@link #conclude} whenever a step or the run closes (and again
 * when late data amends them) and stores the result; the query API, plans, the history and the stepper read the
 * stored result — none re-decides.
 *
 * <p>Max stable load = the last passing step before the first failing one (EP19 §1.1), steps in index order, where
 * contaminated and unjudged steps are skipped: they say nothing about the system, neither pass nor fail.
 *
 * <p>Bottleneck: one criterion, "the resource whose use reaches C·margin first". When some resource has a fit with a
 * ceiling, the one with the smallest safe capacity x_max = (C·margin − base)/slope ({@link CapacityPlan#bottleneckOf},
 * DESIGN "Capacity") — a forward-looking answer with an interval, from uncontaminated steps only. Without such a
 * fit (fewer than 3 steps, or no ceiling known for the fitted resources), the first uncontaminated step in which a
 * resource's sustained use reached C·margin; within a step, the largest use / C wins ({@link #stepBottleneck}, also
 * each verdict's bottleneck). Both parts ask the same question, so a run never gets two different answers.
 *
 * <p>Throughput limit: the request rate's fit decides it ({@link ThroughputLimits#detect}, passed in); the run is
 * generator-limited when the load generator's CPU was saturated at or past its knee ({@link GeneratorLimit#of} over
 * the steps' generator CPU).
 */
public final class Conclusions {

    private static final Comparator<ResourceUse> BY_UTILISATION = Comparator
            .comparingDouble(ResourceUse::utilisation)
            .thenComparing(ResourceUse::metric, Comparator.reverseOrder())
            .thenComparing(ResourceUse::source, Comparator.reverseOrder());

    /** The conclusion's model and its version, as the record's {@code model} names them. */
    public static final String MODEL = "caplab-run-conclusion/1";

    private Conclusions() {
    }

    /** {@link #conclude(List, List, Optional, double)} of a run whose request rate has no throughput limit. */
    public static RunConclusion.Builder conclude(List<StepJudgement> steps, List<ResourceEstimate> fitted,
            double margin) {
        return conclude(steps, fitted, Optional.empty(), margin);
    }

    /**
     * The run's conclusion from its closed steps, its fitted resources at the planning {@code margin} and the
     * throughput limit its request-rate fit showed; the throughput fit among {@code fitted} is no resource
     * ({@link MetricNames#throughputFit}) and is left out. What this decides is set: max stable load and first
     * failure, the steps judged and skipped, the bottleneck, the margin, each resource with its safe capacity at
     * the margin ({@link ResourceEstimates#atMargin}), the model, and the throughput limit with whether the load
     * generator set it. The rest (the run, its state, time, version and warnings, where its rules came from, its
     * egress ceiling, the sources' roles) is the caller's to set.
     */
    public static RunConclusion.Builder conclude(List<StepJudgement> steps, List<ResourceEstimate> fitted,
            Optional<RunThroughputLimit> throughputLimit, double margin) {
        if (!(margin > 0 && margin <= 1)) {
            throw new IllegalArgumentException("margin must be in (0, 1], got " + margin);
        }
        List<ResourceEstimate> ordered = fitted.stream()
                .filter(e -> !MetricNames.throughputFit(e.getSource(), e.getMetric()))
                .sorted(Comparator.comparing(ResourceEstimate::getMetric).thenComparing(ResourceEstimate::getSource))
                .toList();
        StableLoad stable = maxStableLoad(steps);
        int judged = (int) steps.stream().filter(StepJudgement::informative).count();
        RunConclusion.Builder conclusion = RunConclusion.newBuilder()
                .setModel(MODEL)
                .setMaxStableX(Finite.orNull(stable.maxStableX()))
                .setMaxStableStepIndex(stable.lastPassing().map(StepJudgement::stepIndex).orElse(null))
                .setFirstFailingX(Finite.orNull(stable.firstFailingX()))
                .setFirstFailingStepIndex(stable.firstFailing().map(StepJudgement::stepIndex).orElse(null))
                .setStepsJudged(judged)
                .setStepsSkipped(steps.size() - judged)
                .setBottleneck(smallestSafeCapacity(ordered, margin).or(() -> firstStepOverMargin(steps))
                        .orElse(null))
                .setMargin(margin)
                .setResources(ordered.stream().map(e -> ResourceEstimates.atMargin(e, margin)).toList());
        throughputLimit.ifPresent(l -> conclusion.setThroughputLimitBuilder(throughputLimit(l, steps)));
        return conclusion;
    }

    /**
     * The throughput limit as the conclusion carries it, the generator flagged when its CPU was saturated at or past
     * the knee ({@link GeneratorLimit#of}).
     */
    private static RunThroughputLimit.Builder throughputLimit(RunThroughputLimit l, List<StepJudgement> steps) {
        List<GeneratorLimit.StepCpu> generatorCpu = steps.stream()
                .filter(s -> s.x().isPresent() && s.loadGeneratorCpuPercent().isPresent())
                .map(s -> new GeneratorLimit.StepCpu(s.x().getAsDouble(), s.loadGeneratorCpuPercent().getAsDouble()))
                .toList();
        Optional<GeneratorLimit> generator = GeneratorLimit.of(l, generatorCpu);
        return RunThroughputLimit.newBuilder(l)
                .setGeneratorSaturatedAtX(generator.map(GeneratorLimit::x).orElse(null))
                .setGeneratorCpuPercent(generator.map(GeneratorLimit::cpuPercent).orElse(null));
    }

    /** The last informative passing step before the first informative failing one (steps in index order). */
    public static StableLoad maxStableLoad(List<StepJudgement> steps) {
        StepJudgement lastPassing = null;
        for (StepJudgement s : steps.stream().sorted(Comparator.comparingInt(StepJudgement::stepIndex)).toList()) {
            if (!s.informative()) {
                continue;
            }
            if (s.verdict() == StepStatus.FAILED) {
                return new StableLoad(Optional.ofNullable(lastPassing), Optional.of(s));
            }
            lastPassing = s;
        }
        return new StableLoad(Optional.ofNullable(lastPassing), Optional.empty());
    }

    /** The step part of the rule: the resource with the largest use / C, when it is at or past {@code margin}. */
    public static Optional<ResourceUse> stepBottleneck(List<ResourceUse> uses, double margin) {
        return uses.stream().filter(u -> u.utilisation() >= margin).max(BY_UTILISATION);
    }

    private static Optional<RunBottleneck> smallestSafeCapacity(List<ResourceEstimate> resources, double margin) {
        return CapacityPlan.bottleneckOf(resources.stream().flatMap(e -> ResourceEstimates.placed(e, margin).stream())
                        .toList())
                .map(p -> bottleneck(p.source(), p.metric(), BottleneckRule.SMALLEST_SAFE_CAPACITY,
                        p.capacity().safeX(), null));
    }

    private static Optional<RunBottleneck> firstStepOverMargin(List<StepJudgement> steps) {
        return steps.stream().sorted(Comparator.comparingInt(StepJudgement::stepIndex))
                .filter(s -> !s.contaminated() && s.overMargin().isPresent()).findFirst()
                .map(s -> bottleneck(s.overMargin().get().source(), s.overMargin().get().metric(),
                        BottleneckRule.FIRST_STEP_OVER_MARGIN, s.overMargin().get().utilisation(), s.stepIndex()));
    }

    /**
     * @param value     SMALLEST_SAFE_CAPACITY: the safe capacity x; FIRST_STEP_OVER_MARGIN: the use / C in that step
     * @param stepIndex the step that named it (FIRST_STEP_OVER_MARGIN only)
     */
    private static RunBottleneck bottleneck(String source, String metric, BottleneckRule rule, double value,
            Integer stepIndex) {
        return RunBottleneck.newBuilder().setSource(source).setMetric(metric).setRule(rule).setValue(value)
                .setStepIndex(stepIndex).build();
    }
}
