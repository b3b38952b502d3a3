package dev.caplab.store.row;

import java.time.Instant;
import java.util.Objects;

/**
 * The run's throughput limit as streams decided it (Avro {@code RunThroughputLimit}): the knee of the request rate's
 * fit with its 95 % interval, the plateau rate, the slopes either side and Davies' p-value (null when unknown), the
 * fit's step count and time, and where the load generator was saturated at or past the knee (both null when it was
 * not the limit). Stored as the {@code throughput_*} and {@code generator_*} columns of {@code run_conclusions}.
 */
public record ThroughputLimitValue(double kneeX, Double kneeLower95, Double kneeUpper95,
                                   @Column("throughput_plateau_rate_per_s") double plateauRatePerSecond,
                                   double slopeBeforePerX, double slopeAfterPerX, Double breakpointPValue,
                                   int stepsUsed, Instant fittedAt,
                                   @Column("generator_saturated_at_x") Double generatorSaturatedAtX,
                                   @Column("generator_cpu_percent") Double generatorCpuPercent) {

    public ThroughputLimitValue {
        Checks.nonNegative(stepsUsed, "stepsUsed");
        Checks.storable(Objects.requireNonNull(fittedAt, "fittedAt"), "fittedAt");
        if ((generatorSaturatedAtX == null) != (generatorCpuPercent == null)) {
            throw new IllegalArgumentException("the generator's x and CPU go together, got " + generatorSaturatedAtX
                    + "/" + generatorCpuPercent);
        }
    }

    /** The load generator, not the server, was the limit. */
    public boolean generatorLimited() {
        return generatorSaturatedAtX != null;
    }
}
