package dev.caplab.analysis.capacity;

import dev.caplab.schema.event.RunEgressCeiling;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The egress ceiling a run is planned against, the schema's {@link RunEgressCeiling}, and where it came from. Measured
 * beats nominal (DESIGN "Capacity": a "1 Gbps" VM measured 50–106 Mbit/s with iperf3): a measured figure the run
 * declared, else the latest iperf3 measurement ingested into it, else the declared nominal figure. {@link #of} is the
 * one rule; fits, the conclusion and every reader take the ceiling from it. {@link #bytesPerSecond} and {@link #mbps}
 * are the one conversion between Mbit/s and bytes/s.
 */
public final class EgressCeilings {

    /** Bytes per second in one Mbit/s (10⁶ bits / 8). */
    private static final double BYTES_PER_SECOND_PER_MBPS = 1e6 / 8;

    /** Where the ceiling came from; the record holds its name (a string, so a new source never breaks a reader). */
    public enum Source { DECLARED_MEASURED, MEASURED, DECLARED_NOMINAL }

    /** An iperf3 measurement of {@code mbps} Mbit/s at {@code at}. */
    public record Measurement(double mbps, Instant at) {

        public Measurement {
            Objects.requireNonNull(at, "at");
        }
    }

    private EgressCeilings() {
    }

    /**
     * The ceiling from what the run declared ({@code declaredMeasuredMbps}, {@code nominalMbps}: null when not
     * declared) and its latest iperf3 measurement; empty when there is none of the three. Only a
     * {@link Source#MEASURED} ceiling has a measurement time.
     */
    public static Optional<RunEgressCeiling> of(Double declaredMeasuredMbps, Double nominalMbps,
            Optional<Measurement> measured) {
        if (declaredMeasuredMbps != null) {
            return Optional.of(ceiling(declaredMeasuredMbps, Source.DECLARED_MEASURED, null));
        }
        if (measured.isPresent()) {
            return Optional.of(ceiling(measured.get().mbps(), Source.MEASURED, measured.get().at()));
        }
        return Optional.ofNullable(nominalMbps).map(n -> ceiling(n, Source.DECLARED_NOMINAL, null));
    }

    /** {@code mbps} Mbit/s in bytes/s, the unit of {@code net.tx.bytes}. */
    public static double bytesPerSecond(double mbps) {
        return mbps * BYTES_PER_SECOND_PER_MBPS;
    }

    /** {@code bytesPerSecond} bytes/s in Mbit/s, the unit every network rate is shown in. */
    public static double mbps(double bytesPerSecond) {
        return bytesPerSecond / BYTES_PER_SECOND_PER_MBPS;
    }

    private static RunEgressCeiling ceiling(double mbps, Source source, Instant measuredAt) {
        return RunEgressCeiling.newBuilder().setMbps(mbps).setSource(source.name()).setMeasuredAt(measuredAt).build();
    }
}
