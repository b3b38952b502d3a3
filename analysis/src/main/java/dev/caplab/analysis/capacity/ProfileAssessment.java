package dev.caplab.analysis.capacity;

import java.util.Objects;

/** A workload profile's load against a node's capacity, with the resource that limits it (null when none grows with load). */
public record ProfileAssessment(String profile, double load, String bottleneckResource, double safeLoad,
                                double fullCeilingLoad, ProfileFit fit) {
    public ProfileAssessment {
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(fit, "fit");
    }
}
