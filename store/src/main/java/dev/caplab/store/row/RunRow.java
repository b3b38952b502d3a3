package dev.caplab.store.row;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.caplab.schema.event.SloRule;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A run: a row of {@code runs}, RunStarted, and after RunEnded the same run with its end filled in and a higher
 * version. What was tested (SUT), where (provider, region, instance type, tier, vCPU, memory, nominal and measured
 * egress), with which tool, and when. Nullable components are null when the event left them out; planned steps and
 * SLO rules are typed columns. {@link #status} is RUNNING until the run ends (by {@code caplab run end}, or after its
 * idle time when nobody declared it), then how it ended ({@code endStatus}, stored as {@code status}, null until
 * then); {@code origin} is DECLARED when a client started it, INFERRED when streams made it from its first samples
 * (metadata from their labels, start at the earliest sample). Its JSON is the run as the API lists it: what only
 * storage needs is left out.
 */
@JsonPropertyOrder({"runId", "startedAt", "endedAt", "status", "sutName", "sutVersion", "provider", "region",
        "instanceType", "tier", "vcpu", "memoryBytes", "nominalEgressMbps", "measuredEgressMbps", "tool",
        "loadExpression", "labels", "origin"})
public record RunRow(String runId, Instant startedAt, String sutName, String sutVersion,
                     @JsonIgnore String sutConfigDigest, String provider, String region, String instanceType,
                     String tier, Double vcpu, Long memoryBytes, Double nominalEgressMbps, Double measuredEgressMbps,
                     String tool, Map<String, String> labels, @JsonIgnore List<Map<String, Double>> plannedSteps,
                     @JsonIgnore List<SloRule> sloRules, String loadExpression, String origin, Instant endedAt,
                     @JsonIgnore @Column("status") String endStatus, @JsonIgnore String endReason,
                     @JsonIgnore long version) implements RunScopedRow {

    /** The status of a run that has not ended. */
    public static final String RUNNING = "RUNNING";

    public RunRow {
        Checks.text(runId, "runId");
        Checks.storable(Objects.requireNonNull(startedAt, "startedAt"), "startedAt");
        Checks.storable(endedAt, "endedAt");
        Checks.text(sutName, "sutName");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(tool, "tool");
        labels = Checks.sortedMap(labels, "labels");
        plannedSteps = Objects.requireNonNull(plannedSteps, "plannedSteps").stream().map(Map::copyOf).toList();
        sloRules = List.copyOf(Objects.requireNonNull(sloRules, "sloRules"));
        Objects.requireNonNull(loadExpression, "loadExpression");
        Checks.text(origin, "origin");
        Checks.nonNegative(version, "version");
        if (endedAt != null && endedAt.isBefore(startedAt)) {
            throw new IllegalArgumentException("run " + runId + " ends " + endedAt + " before it starts " + startedAt);
        }
    }

    /** {@link #RUNNING} until the run ends, then how it ended (COMPLETED, ABORTED…). */
    @JsonProperty("status")
    public String status() {
        return statusOf(endStatus);
    }

    /** A run stores no status until it ends: a missing status reads as {@link #RUNNING}. */
    public static String statusOf(String stored) {
        return stored == null ? RUNNING : stored;
    }
}
