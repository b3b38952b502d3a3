package dev.caplab.query.runs;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.Map;

/**
 * One run as listed: what was tested (SUT), where (provider, region, instance type, tier, vCPU, memory, nominal and
 * measured egress), with which tool, and when. Measured egress beats nominal when both are known.
 */
public record RunSummary(String runId, Instant startedAt, Instant endedAt, String status, String sutName,
                         String sutVersion, String provider, String region, String instanceType, String tier,
                         Double vcpu, Long memoryBytes, Double nominalEgressMbps, Double measuredEgressMbps,
                         String tool, String loadExpression, Map<String, String> labels) {

    public RunSummary {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    /** The egress ceiling to plan with: measured when known, nominal otherwise (a "1 Gbps" VM may give 100 Mbps). */
    @JsonProperty("egressCeilingMbps")
    public Double egressCeilingMbps() {
        return measuredEgressMbps != null ? measuredEgressMbps : nominalEgressMbps;
    }
}
