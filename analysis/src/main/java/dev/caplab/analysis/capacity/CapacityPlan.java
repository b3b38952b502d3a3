package dev.caplab.analysis.capacity;

import java.util.Comparator;
import java.util.List;

/** Capacity over several resources of one node: the smallest safe load names the bottleneck (report 000, DESIGN "Capacity"). */
public record CapacityPlan(String modelName, String modelVersion, List<CapacityEstimate> resources,
                           CapacityEstimate bottleneck) {
    public static final String MODEL_NAME = "capacity-linear";
    public static final String MODEL_VERSION = "1";

    public CapacityPlan {
        resources = List.copyOf(resources);
        if (resources.isEmpty()) {
            throw new IllegalArgumentException("a capacity plan needs at least one resource");
        }
        if (!resources.contains(bottleneck)) {
            throw new IllegalArgumentException("bottleneck " + bottleneck.resource() + " is not among the resources");
        }
    }

    /** Plans from per-resource estimates; the bottleneck is the one with the smallest {@code safeX}. */
    public static CapacityPlan of(List<CapacityEstimate> estimates) {
        if (estimates.isEmpty()) {
            throw new IllegalArgumentException("a capacity plan needs at least one resource");
        }
        CapacityEstimate b = estimates.stream().min(Comparator.comparingDouble(CapacityEstimate::safeX)).orElseThrow();
        return new CapacityPlan(MODEL_NAME, MODEL_VERSION, estimates, b);
    }

    /**
     * Places a workload on this node: FITTING when its load is within every resource's safe load,
     * TIGHT when it fits under the full ceilings but not the margin, UNREACHABLE otherwise.
     */
    public ProfileAssessment assess(WorkloadProfile profile) {
        double load = profile.load();
        double fullLimit = resources.stream().mapToDouble(CapacityEstimate::xAtFullCeiling).min().orElseThrow();
        ProfileFit fit = load <= bottleneck.safeX() ? ProfileFit.FITTING
                : load <= fullLimit && !bottleneck.cappedByCliff() ? ProfileFit.TIGHT : ProfileFit.UNREACHABLE;
        return new ProfileAssessment(profile.name(), load, bottleneck.resource(), bottleneck.safeX(), fullLimit, fit);
    }
}
