package dev.caplab.store.row;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A row of {@code runs}: RunStarted, and after RunEnded the same run with its end filled in and a higher version.
 * Nullable components are null when the event left them out; planned steps and SLO rules are typed columns;
 * {@code origin} is DECLARED (a client sent the start) or INFERRED (streams made it from the run's first samples).
 */
public record RunRow(String runId, Instant startedAt, String sutName, String sutVersion, String sutConfigDigest,
                     String provider, String region, String instanceType, String tier, Double vcpu,
                     Long memoryBytes, Double nominalEgressMbps, Double measuredEgressMbps, String tool,
                     Map<String, String> labels, List<Map<String, Double>> plannedSteps, List<SloRuleValue> sloRules,
                     String loadExpression, String origin, Instant endedAt, String status, String endReason, long version)
        implements RunScopedRow {

    public RunRow {
        Checks.text(runId, "runId");
        Checks.storable(Objects.requireNonNull(startedAt, "startedAt"), "startedAt");
        Checks.storable(endedAt, "endedAt");
        Checks.text(sutName, "sutName");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(tool, "tool");
        labels = Checks.map(labels, "labels");
        plannedSteps = Objects.requireNonNull(plannedSteps, "plannedSteps").stream().map(Map::copyOf).toList();
        sloRules = List.copyOf(Objects.requireNonNull(sloRules, "sloRules"));
        Objects.requireNonNull(loadExpression, "loadExpression");
        Checks.text(origin, "origin");
        Checks.nonNegative(version, "version");
        if (endedAt != null && endedAt.isBefore(startedAt)) {
            throw new IllegalArgumentException("run " + runId + " ends " + endedAt + " before it starts " + startedAt);
        }
    }
}
