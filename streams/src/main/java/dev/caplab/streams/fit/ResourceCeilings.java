package dev.caplab.streams.fit;

import dev.caplab.analysis.capacity.EgressCeilings;
import dev.caplab.schema.event.RunEgressCeiling;
import dev.caplab.schema.event.Environment;
import dev.caplab.schema.vocabulary.MetricNames;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The node ceiling C of a resource metric, in the metric's unit, from the run's environment: vCPU for
 * {@code cpu.cores}, memory for {@code mem.bytes}, and for {@code net.tx.bytes} the run's effective egress
 * ({@link EgressCeilings}: measured beats nominal) as bytes/s.
 */
public final class ResourceCeilings {

    private ResourceCeilings() {
    }

    /** C of {@code metric} given the run's declared environment (null: none) and its effective egress. */
    public static OptionalDouble of(String metric, Environment env, Optional<RunEgressCeiling> egress) {
        Double value = switch (metric) {
            case MetricNames.CPU_CORES -> env == null ? null : env.getVcpu();
            case MetricNames.MEM_BYTES -> env == null || env.getMemoryBytes() == null ? null
                    : env.getMemoryBytes().doubleValue();
            case MetricNames.NET_TX_BYTES -> egress.map(e -> EgressCeilings.bytesPerSecond(e.getMbps())).orElse(null);
            default -> null;
        };
        return value == null || !(value > 0) ? OptionalDouble.empty() : OptionalDouble.of(value);
    }
}
