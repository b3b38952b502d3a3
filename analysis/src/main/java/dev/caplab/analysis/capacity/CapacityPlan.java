package dev.caplab.analysis.capacity;

import dev.caplab.schema.vocabulary.MetricNames;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A node's capacity at a planning margin, a pure function of a run's stored per-resource estimates (the run
 * conclusion's): each resource's safe load x_max = (C·margin − base)/slope on its pre-knee line, and the bottleneck,
 * the resource with the smallest finite safe load (report 000, DESIGN "Capacity"). That selection is the fitted part
 * of the one bottleneck rule, {@link dev.caplab.analysis.conclusion.Conclusions}.
 */
public record CapacityPlan(String modelName, String modelVersion, double margin, List<Placed> resources,
                           Optional<Placed> bottleneck) {
    public static final String MODEL_NAME = "capacity-linear";
    public static final String MODEL_VERSION = "2";

    public CapacityPlan {
        resources = List.copyOf(resources);
        if (resources.isEmpty()) {
            throw new IllegalArgumentException("a capacity plan needs at least one resource with a ceiling");
        }
        if (bottleneck.isPresent() && !resources.contains(bottleneck.get())) {
            throw new IllegalArgumentException("bottleneck " + bottleneck.get().estimate().metric()
                    + " is not among the resources");
        }
    }

    /** A resource's stored estimate and its capacity at the plan's margin. */
    public record Placed(ResourceEstimate estimate, CapacityEstimate capacity) {
    }

    /**
     * Plans from stored estimates at {@code margin}; resources without a ceiling are left out.
     *
     * @throws IllegalArgumentException when no resource has a ceiling
     */
    public static CapacityPlan of(List<ResourceEstimate> estimates, double margin) {
        List<Placed> placed = placed(estimates, margin);
        return new CapacityPlan(MODEL_NAME, MODEL_VERSION, margin, placed, smallestSafeLoad(placed));
    }

    /** The resource whose pre-knee line reaches C·margin at the smallest load, if any grows with load. */
    public static Optional<Placed> bottleneckOf(List<ResourceEstimate> estimates, double margin) {
        return smallestSafeLoad(placed(estimates, margin));
    }

    private static List<Placed> placed(List<ResourceEstimate> estimates, double margin) {
        // the throughput fit is a limit of the request rate, not a resource with a ceiling to plan against
        return estimates.stream().filter(e -> !MetricNames.throughputFit(e.source(), e.metric()))
                .sorted(Comparator.comparing(ResourceEstimate::metric).thenComparing(ResourceEstimate::source))
                .flatMap(e -> e.capacityAt(margin).map(c -> new Placed(e, c)).stream())
                .toList();
    }

    private static Optional<Placed> smallestSafeLoad(List<Placed> placed) {
        // Safe loads are clipped at 0, so every resource already past C·margin at the lightest measured load ties
        // there; of those, the one furthest past its ceiling ran out first (a server at 4× its vCPU share before a
        // host at 0.64 of its cores). A remaining tie goes to the first in (metric, source) order: a stable min.
        return placed.stream().filter(p -> Double.isFinite(p.capacity().safeX()))
                .min(Comparator.<Placed>comparingDouble(p -> p.capacity().safeX())
                        .thenComparing(Comparator.comparingDouble(CapacityPlan::utilisationAtLightestLoad).reversed()));
    }

    /** The fitted use at the lightest measured load over the ceiling. */
    private static double utilisationAtLightestLoad(Placed p) {
        return p.estimate().preKnee().predict(p.estimate().fromX()) / p.capacity().ceiling();
    }

    /**
     * Places a workload on this node: FITTING when its load is within every resource's safe load, TIGHT when it fits
     * under the full ceilings but not the margin (and no cliff capped the bottleneck), UNREACHABLE otherwise.
     */
    public ProfileAssessment assess(WorkloadProfile profile) {
        return assess(profile, OptionalDouble.empty(), OptionalDouble.empty());
    }

    /**
     * {@link #assess(WorkloadProfile)} on a node that was measured to fall over: when a step failed
     * ({@code firstFailingX}), no load beyond the last step that passed before it ({@code maxStableX}, 0 when none
     * did) is offered, neither as safe nor as full-ceiling load, whatever the lines extrapolate to.
     */
    public ProfileAssessment assess(WorkloadProfile profile, OptionalDouble firstFailingX, OptionalDouble maxStableX) {
        double load = profile.load();
        double cap = firstFailingX.isPresent() ? maxStableX.orElse(0) : Double.POSITIVE_INFINITY;
        double fullLimit = Math.min(cap,
                resources.stream().mapToDouble(p -> p.capacity().xAtFullCeiling()).min().orElseThrow());
        double safe = Math.min(cap, bottleneck.map(p -> p.capacity().safeX()).orElse(Double.POSITIVE_INFINITY));
        boolean capped = bottleneck.map(p -> p.capacity().cappedByCliff()).orElse(false);
        ProfileFit fit = load <= safe ? ProfileFit.FITTING
                : load <= fullLimit && !capped ? ProfileFit.TIGHT : ProfileFit.UNREACHABLE;
        return new ProfileAssessment(profile.name(), load, bottleneck.map(p -> p.estimate().metric()).orElse(null),
                safe, fullLimit, fit);
    }
}
