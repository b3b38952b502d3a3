package dev.caplab.analysis.capacity;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The egress ceiling a run is planned against and where it came from. Measured beats nominal (DESIGN "Capacity": a
 * "1 Gbps" VM measured 50–106 Mbit/s with iperf3): a measured figure the run declared, else the latest iperf3
 * measurement ingested into it, else the declared nominal figure. The one rule; fits, the conclusion and every reader
 * take the ceiling from here.
 *
 * @param measuredAt when iperf3 measured it ({@link Source#MEASURED} only)
 */
public record EffectiveEgress(double mbps, Source source, Optional<Instant> measuredAt) {

    /** Bytes per second in one Mbit/s (10⁶ bits / 8). */
    public static final double BYTES_PER_SECOND_PER_MBPS = 1e6 / 8;

    /** Where the ceiling came from. */
    public enum Source { DECLARED_MEASURED, MEASURED, DECLARED_NOMINAL }

    /** An iperf3 measurement of {@code mbps} Mbit/s at {@code at}. */
    public record Measurement(double mbps, Instant at) {

        public Measurement {
            Objects.requireNonNull(at, "at");
        }
    }

    public EffectiveEgress {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(measuredAt, "measuredAt");
        if (measuredAt.isPresent() != (source == Source.MEASURED)) {
            throw new IllegalArgumentException("a measurement time goes with MEASURED only, got " + source);
        }
    }

    /**
     * The ceiling from what the run declared ({@code declaredMeasuredMbps}, {@code nominalMbps}: null when not
     * declared) and its latest iperf3 measurement; empty when there is none of the three.
     */
    public static Optional<EffectiveEgress> of(Double declaredMeasuredMbps, Double nominalMbps,
            Optional<Measurement> measured) {
        if (declaredMeasuredMbps != null) {
            return Optional.of(new EffectiveEgress(declaredMeasuredMbps, Source.DECLARED_MEASURED, Optional.empty()));
        }
        if (measured.isPresent()) {
            return Optional.of(new EffectiveEgress(measured.get().mbps(), Source.MEASURED,
                    Optional.of(measured.get().at())));
        }
        return Optional.ofNullable(nominalMbps)
                .map(n -> new EffectiveEgress(n, Source.DECLARED_NOMINAL, Optional.empty()));
    }

    /** The ceiling in bytes/s, the unit of {@code net.tx.bytes}. */
    public double bytesPerSecond() {
        return mbps * BYTES_PER_SECOND_PER_MBPS;
    }
}
