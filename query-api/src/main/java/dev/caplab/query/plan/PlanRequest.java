package dev.caplab.query.plan;

import java.util.List;

/**
 * A workload profile to place on measured tiers. The profile gives its load in the fit's x directly
 * ({@code load}) or as conference rooms ({@code rooms}, {@code participants}, {@code cameras}: x = rooms × cameras ×
 * (participants − 1) subscriptions). Tiers are named by run ids or by tier names (the newest run of each tier).
 */
public record PlanRequest(Profile profile, List<String> runIds, List<String> tiers, String sut, Double margin) {

    public PlanRequest {
        runIds = runIds == null ? List.of() : List.copyOf(runIds);
        tiers = tiers == null ? List.of() : List.copyOf(tiers);
    }

    /** The workload: a name and either a load or a conference shape. */
    public record Profile(String name, Double load, Integer rooms, Integer participants, Integer cameras) {
    }
}
