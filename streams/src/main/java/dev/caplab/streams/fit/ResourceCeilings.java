package dev.caplab.streams.fit;

import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.schema.event.Environment;
import java.util.OptionalDouble;

/**
 * The node ceiling C of a resource metric, in the metric's unit, from the run's environment: vCPU for
 * {@code cpu.cores}, memory for {@code mem.bytes}, egress for {@code net.tx.bytes} as bytes/s — measured egress
 * beats nominal (a "1 Gbps" VM measured 50–106 Mbps, seeds/002).
 */
public final class ResourceCeilings {

    private static final double BYTES_PER_SECOND_PER_MBPS = 1e6 / 8;

    private ResourceCeilings() {
    }

    public static OptionalDouble of(String metric, Environment env) {
        if (env == null) {
            return OptionalDouble.empty();
        }
        Double value = switch (metric) {
            case MetricNames.CPU_CORES -> env.getVcpu();
            case MetricNames.MEM_BYTES -> env.getMemoryBytes() == null ? null : env.getMemoryBytes().doubleValue();
            case MetricNames.NET_TX_BYTES -> {
                Double mbps = env.getMeasuredEgressMbps() != null ? env.getMeasuredEgressMbps()
                        : env.getNominalEgressMbps();
                yield mbps == null ? null : mbps * BYTES_PER_SECOND_PER_MBPS;
            }
            default -> null;
        };
        return value == null || !(value > 0) ? OptionalDouble.empty() : OptionalDouble.of(value);
    }
}
