package dev.caplab.store.row;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.Objects;

/**
 * The run's throughput limit as streams decided it (Avro {@code RunThroughputLimit}) and as the API serves it: the load
 * x where the request rate stopped growing (the knee of its segmented fit) with its 95 % interval, the plateau rate,
 * the slopes either side and Davies' p-value (each null when unknown), the fit's step count and time, and — when the
 * load generator's CPU was sampled — where the generator was saturated at or past the knee, with its CPU (both null
 * when it was not the limit): then the plateau is the tool's, not the server's ({@link #generatorLimited}). Stored as
 * the {@code throughput_*} and {@code generator_*} columns of {@code run_conclusions}.
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
    @JsonProperty("generatorLimited")
    public boolean generatorLimited() {
        return generatorSaturatedAtX != null;
    }
}
