package dev.caplab.ingest.lifecycle;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.caplab.schema.vocabulary.Unstated;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A run begins: what is tested ({@code sut}, {@code sutVersion}), where (provider, region, tier, instance type,
 * vCPU, memory, nominal and measured egress in Mbit/s), with which tool, labels, planned steps, SLO rules as text
 * ({@code p95(http_req_duration)<=500}) and the load expression giving the fit's x. A null runId gets one generated.
 */
// bound directly by the /api/v1/runs endpoints, where no "type" property is needed
@JsonTypeInfo(use = JsonTypeInfo.Id.NONE)
public record RunStartRequest(String runId, String sut, String sutVersion, String configDigest, String provider,
        String region, String tier, String instanceType, Double vcpu, Long memoryBytes, Double nominalEgressMbps,
        Double measuredEgressMbps, String tool, Map<String, String> labels, List<Map<String, Double>> plannedSteps,
        List<String> slo, String loadExpression, Instant startedAt) implements LifecycleRequest {

    public RunStartRequest {
        if (sut == null || sut.isBlank()) {
            throw new InvalidLifecycleRequestException("sut (the system under test's name) is required");
        }
        provider = Unstated.is(provider) ? Unstated.VALUE : provider;
        tool = Unstated.is(tool) ? Unstated.VALUE : tool;
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        plannedSteps = plannedSteps == null ? List.of() : List.copyOf(plannedSteps);
        slo = slo == null ? List.of() : List.copyOf(slo);
        loadExpression = loadExpression == null || loadExpression.isBlank() ? LoadDimensions.DEFAULT_DIMENSION
                : loadExpression;
        requirePositive("vcpu", vcpu);
        requirePositive("memoryBytes", memoryBytes);
        requirePositive("nominalEgressMbps", nominalEgressMbps);
        requirePositive("measuredEgressMbps", measuredEgressMbps);
    }

    private static void requirePositive(String name, Number value) {
        if (value != null && !(value.doubleValue() > 0)) {
            throw new InvalidLifecycleRequestException(name + " must be > 0, was " + value);
        }
    }
}
