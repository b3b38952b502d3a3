package dev.caplab.analysis.conclusion;

import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.analysis.capacity.CapacityPlan;
import dev.caplab.analysis.capacity.ResourceEstimate;
import dev.caplab.analysis.throughput.GeneratorLimit;
import dev.caplab.analysis.throughput.ThroughputLimit;
import dev.caplab.analysis.throughput.TrafficMetrics;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

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
 * <p>Throughput limit: the request rate's fit decides it ({@link ThroughputLimit#detect}, passed in); the run is
 * generator-limited when the load generator's CPU was saturated at or past its knee ({@link GeneratorLimit#of} over
 * the steps' generator CPU).
 */
public final class Conclusions {

    private static final Comparator<ResourceUse> BY_UTILISATION = Comparator
            .comparingDouble(ResourceUse::utilisation)
            .thenComparing(ResourceUse::metric, Comparator.reverseOrder())
            .thenComparing(ResourceUse::source, Comparator.reverseOrder());

    private Conclusions() {
    }

    /** {@link #conclude(List, List, Optional, double)} of a run whose request rate has no throughput limit. */
    public static RunConclusion conclude(List<StepJudgement> steps, List<ResourceEstimate> fitted, double margin) {
        return conclude(steps, fitted, Optional.empty(), margin);
    }

    /**
     * The run's conclusion from its closed steps, its fitted resources at the planning {@code margin} and the
     * throughput limit its request-rate fit showed; the throughput fit among {@code fitted} is no resource
     * ({@link MetricNames#throughputFit}) and is left out.
     */
    public static RunConclusion conclude(List<StepJudgement> steps, List<ResourceEstimate> fitted,
            Optional<ThroughputLimit> throughputLimit, double margin) {
        List<ResourceEstimate> ordered = fitted.stream()
                .filter(e -> !MetricNames.throughputFit(e.source(), e.metric()))
                .sorted(Comparator.comparing(ResourceEstimate::metric).thenComparing(ResourceEstimate::source))
                .toList();
        Optional<Bottleneck> bottleneck = smallestSafeCapacity(ordered, margin).or(() -> firstStepOverMargin(steps));
        int judged = (int) steps.stream().filter(StepJudgement::informative).count();
        List<GeneratorLimit.StepCpu> generatorCpu = steps.stream()
                .filter(s -> s.x().isPresent() && s.loadGeneratorCpuPercent().isPresent())
                .map(s -> new GeneratorLimit.StepCpu(s.x().getAsDouble(), s.loadGeneratorCpuPercent().getAsDouble()))
                .toList();
        return new RunConclusion(RunConclusion.MODEL_NAME, RunConclusion.MODEL_VERSION, maxStableLoad(steps),
                bottleneck, ordered, margin, judged, steps.size() - judged, throughputLimit,
                throughputLimit.flatMap(l -> GeneratorLimit.of(l, generatorCpu)), List.of());
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

    private static Optional<Bottleneck> smallestSafeCapacity(List<ResourceEstimate> resources, double margin) {
        return CapacityPlan.bottleneckOf(resources, margin).map(p -> new Bottleneck(p.estimate().source(),
                p.estimate().metric(), Bottleneck.Rule.SMALLEST_SAFE_CAPACITY, p.capacity().safeX(),
                OptionalInt.empty()));
    }

    private static Optional<Bottleneck> firstStepOverMargin(List<StepJudgement> steps) {
        return steps.stream().sorted(Comparator.comparingInt(StepJudgement::stepIndex))
                .filter(s -> !s.contaminated() && s.overMargin().isPresent()).findFirst()
                .map(s -> new Bottleneck(s.overMargin().get().source(), s.overMargin().get().metric(),
                        Bottleneck.Rule.FIRST_STEP_OVER_MARGIN, s.overMargin().get().utilisation(),
                        OptionalInt.of(s.stepIndex())));
    }
}
