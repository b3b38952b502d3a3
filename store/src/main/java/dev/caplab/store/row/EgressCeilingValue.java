package dev.caplab.store.row;

import java.time.Instant;
import java.util.Objects;

/**
 * The egress ceiling a run was planned against, in Mbit/s, and where it came from ({@code DECLARED_MEASURED},
 * {@code MEASURED} by iperf3 at {@code measuredAt}, or {@code DECLARED_NOMINAL}), as streams resolved it (Avro
 * {@code RunEgressCeiling}); the {@code egress_ceiling_*} columns of {@code run_conclusions}.
 */
public record EgressCeilingValue(double mbps, String source, Instant measuredAt) {

    public EgressCeilingValue {
        Checks.text(source, "source");
        if (measuredAt != null) {
            Checks.storable(measuredAt, "measuredAt");
        }
    }
}
