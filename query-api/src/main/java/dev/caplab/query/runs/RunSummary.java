package dev.caplab.query.runs;

import java.util.List;
import dev.caplab.store.access.DeletedRunRepository;
import dev.caplab.store.access.RunRepository;
import dev.caplab.store.row.RunRow;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.caplab.analysis.capacity.EffectiveEgress;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One run as listed: what was tested (SUT), where (provider, region, instance type, tier, vCPU, memory, nominal and
 * measured egress), with which tool, and when. Measured egress beats nominal when both are known. {@code status} is
 * RUNNING until the run ends (by {@code caplab run end}, or after its idle time when nobody declared it);
 * {@code origin} is DECLARED when a client started it, INFERRED when its first samples did (metadata from their
 * labels, start at the earliest sample). The outcome ({@code maxStableX}, {@code failedX}, {@code bottleneck}) is
 * the run conclusion's, filled in where runs are listed; null until a step closed, and in a run's detail, which
 * carries the whole conclusion.
 */
public record RunSummary(String runId, Instant startedAt, Instant endedAt, String status, String sutName,
                         String sutVersion, String provider, String region, String instanceType, String tier,
                         Double vcpu, Long memoryBytes, Double nominalEgressMbps, Double measuredEgressMbps,
                         String tool, String loadExpression, Map<String, String> labels, String origin,
                         Double maxStableX, Double failedX, String bottleneck) {

    /** A run as stored, without its outcome. */
    public RunSummary(String runId, Instant startedAt, Instant endedAt, String status, String sutName,
                      String sutVersion, String provider, String region, String instanceType, String tier,
                      Double vcpu, Long memoryBytes, Double nominalEgressMbps, Double measuredEgressMbps,
                      String tool, String loadExpression, Map<String, String> labels, String origin) {
        this(runId, startedAt, endedAt, status, sutName, sutVersion, provider, region, instanceType, tier, vcpu,
                memoryBytes, nominalEgressMbps, measuredEgressMbps, tool, loadExpression, labels, origin, null, null,
                null);
    }

    /** The same run with its conclusion's outcome: max stable load, first failing load, "metric@source". */
    public RunSummary withOutcome(Double maxStable, Double failed, String bottleneckName) {
        return new RunSummary(runId, startedAt, endedAt, status, sutName, sutVersion, provider, region, instanceType,
                tier, vcpu, memoryBytes, nominalEgressMbps, measuredEgressMbps, tool, loadExpression, labels, origin,
                maxStable, failed, bottleneckName);
    }

    /** A stored run as listed, without its outcome. */
    public static RunSummary of(RunRow r) {
        return new RunSummary(r.runId(), r.startedAt(), r.endedAt(), r.status(), r.sutName(), r.sutVersion(),
                r.provider(), r.region(), r.instanceType(), r.tier(), r.vcpu(), r.memoryBytes(),
                r.nominalEgressMbps(), r.measuredEgressMbps(), r.tool(), r.loadExpression(), r.labels(), r.origin());
    }

    /** Stored runs as listed, in their order. */
    public static List<RunSummary> of(List<RunRow> rows) {
        return rows.stream().map(RunSummary::of).toList();
    }

    /**
     * The stored run {@code runId}; throws {@link RunNotFoundException} when it was never stored or a client deleted
     * it (then saying when).
     */
    public static RunSummary require(String runId, RunRepository runs, DeletedRunRepository deletions) {
        return runs.find(runId).map(RunSummary::of).orElseThrow(() -> RunNotFoundException.of(runId, deletions));
    }

    /** The status of a run that has not ended. */
    public static final String RUNNING = "RUNNING";

    /** A run stores no status until it ends: a missing status reads as {@link #RUNNING}. */
    public static String statusOf(String stored) {
        return stored == null ? RUNNING : stored;
    }

    public RunSummary {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        status = statusOf(status);
        origin = origin == null ? "DECLARED" : origin;
    }

    /**
     * The egress ceiling to plan with by the one rule ({@link EffectiveEgress}) over what the run declared: measured
     * when known, nominal otherwise (a "1 Gbps" VM may give 100 Mbps). An iperf3 measurement ingested into the run is
     * in its conclusion's ceiling (the run detail's {@code egressCeiling}), not in this list figure.
     */
    @JsonProperty("egressCeilingMbps")
    public Double egressCeilingMbps() {
        return declaredEgressCeiling().map(EffectiveEgress::mbps).orElse(null);
    }

    /** The egress ceiling by the one rule ({@link EffectiveEgress}) over what the run declared; empty without any. */
    public Optional<EffectiveEgress> declaredEgressCeiling() {
        return EffectiveEgress.of(measuredEgressMbps, nominalEgressMbps, Optional.empty());
    }
}
