package dev.caplab.query.plan;

import java.util.List;

/**
 * A profile on one measured tier: FITTING within every resource's margin, TIGHT under the full ceilings only,
 * UNREACHABLE beyond a ceiling or a cliff; the bottleneck, and the headroom in x (safe load minus profile load).
 * {@code testedToX} is the highest load the tier's run tested (null when none closed): the safe and full-ceiling
 * loads, straight lines' figures, may lie beyond it.
 */
public record TierPlan(String runId, String provider, String tier, Double vcpu, double load, String fit,
                       String bottleneck, double safeLoad, double fullCeilingLoad, double headroomX,
                       List<ResourceNeed> resources, Double testedToX) {

    public TierPlan {
        resources = List.copyOf(resources);
    }

    /** This plan with the highest load its run tested. */
    TierPlan testedTo(Double highestX) {
        return new TierPlan(runId, provider, tier, vcpu, load, fit, bottleneck, safeLoad, fullCeilingLoad, headroomX,
                resources, highestX);
    }
}
