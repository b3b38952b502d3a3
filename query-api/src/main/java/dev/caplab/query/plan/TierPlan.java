package dev.caplab.query.plan;

import java.util.List;

/**
 * A profile on one measured tier: FITTING within every resource's margin, TIGHT under the full ceilings only,
 * UNREACHABLE beyond a ceiling or a cliff; the bottleneck, and the headroom in x (safe load minus profile load).
 */
public record TierPlan(String runId, String provider, String tier, Double vcpu, double load, String fit,
                       String bottleneck, double safeLoad, double fullCeilingLoad, double headroomX,
                       List<ResourceNeed> resources) {

    public TierPlan {
        resources = List.copyOf(resources);
    }
}
