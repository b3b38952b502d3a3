package dev.caplab.analysis.capacity;

import dev.caplab.analysis.fit.LinearFit;
import dev.caplab.schema.vocabulary.MetricNames;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A node's capacity at a planning margin, a pure function of a run's stored per-resource estimates (the run
 * conclusion's, each placed at the margin by {@link #place}): each resource's safe load x_max = (C·margin −
 * base)/slope on its pre-knee line, and the bottleneck, the resource with the smallest finite safe load (report 000,
 * DESIGN "Capacity"). That selection is the fitted part of the one bottleneck rule,
 * {@link dev.caplab.analysis.conclusion.Conclusions}.
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
            throw new IllegalArgumentException("bottleneck " + bottleneck.get().metric()
                    + " is not among the resources");
        }
    }

    /**
     * One resource at the plan's margin: its pre-knee line, the lightest load it was fitted from, and its capacity
     * ({@link CapacityModel#estimate}).
     */
    public record Placed(String source, String metric, LinearFit preKnee, double fromX, CapacityEstimate capacity) {

        public Placed {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(metric, "metric");
            Objects.requireNonNull(preKnee, "preKnee");
            Objects.requireNonNull(capacity, "capacity");
        }

        /** The 95 % interval of its safe capacity ({@link CapacityModel#safeInterval95}). */
        public Optional<CapacityModel.Interval> safeInterval95() {
            return CapacityModel.safeInterval95(preKnee, capacity);
        }
    }

    /**
     * The one place a stored estimate's figures become a capacity at {@code margin}: x_max = (C·margin − base)/slope
     * on its pre-knee line with its SE, capped at the last stable x past a cliff ({@link CapacityModel#estimate});
     * empty without a ceiling, which leaves nothing to plan against.
     */
    public static Optional<Placed> place(String source, String metric, LinearFit preKnee, double fromX,
            OptionalDouble ceiling, OptionalDouble lastStableX, double margin) {
        if (ceiling.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Placed(source, metric, preKnee, fromX,
                CapacityModel.estimate(metric, preKnee, ceiling.getAsDouble(), margin, lastStableX)));
    }

    /**
     * Plans from resources placed at {@code margin} ({@link #place}).
     *
     * @throws IllegalArgumentException when there is none, or one was placed at another margin
     */
    public static CapacityPlan of(List<Placed> placed, double margin) {
        placed.stream().filter(p -> p.capacity().margin() != margin).findFirst().ifPresent(p -> {
            throw new IllegalArgumentException(p.metric() + "@" + p.source() + " was placed at margin "
                    + p.capacity().margin() + ", the plan is at " + margin);
        });
        List<Placed> resources = resources(placed);
        return new CapacityPlan(MODEL_NAME, MODEL_VERSION, margin, resources, smallestSafeLoad(resources));
    }

    /** The resource whose pre-knee line reaches C·margin at the smallest load, if any grows with load. */
    public static Optional<Placed> bottleneckOf(List<Placed> placed) {
        return smallestSafeLoad(resources(placed));
    }

    private static List<Placed> resources(List<Placed> placed) {
        // the throughput fit is a limit of the request rate, not a resource with a ceiling to plan against
        return placed.stream().filter(p -> !MetricNames.throughputFit(p.source(), p.metric()))
                .sorted(Comparator.comparing(Placed::metric).thenComparing(Placed::source))
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
        return p.preKnee().predict(p.fromX()) / p.capacity().ceiling();
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
        return new ProfileAssessment(profile.name(), load, bottleneck.map(Placed::metric).orElse(null),
                safe, fullLimit, fit);
    }
}
