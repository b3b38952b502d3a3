package dev.caplab.store.row;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.caplab.schema.vocabulary.EgressMeasurement;
import java.time.Instant;
import java.util.Locale;

/**
 * The egress ceiling a run was planned against, in Mbit/s, and where it came from ({@code DECLARED_MEASURED},
 * {@code MEASURED} by iperf3 at {@code measuredAt}, or {@code DECLARED_NOMINAL}), as streams resolved it (Avro
 * {@code RunEgressCeiling}, analysis {@code EgressCeilings}: measured beats nominal); the {@code egress_ceiling_*}
 * columns of {@code run_conclusions}, and what the API serves as a run's {@code egressCeiling} with its words for
 * people ({@link #text}).
 */
public record EgressCeilingValue(double mbps, String source, Instant measuredAt) {

    public EgressCeilingValue {
        Checks.text(source, "source");
        if (measuredAt != null) {
            Checks.storable(measuredAt, "measuredAt");
        }
    }

    /** Where the ceiling came from, for people: e.g. "measured by iperf3 at 2026-12-03T19:41:29Z". */
    @JsonProperty("text")
    public String text() {
        return switch (source) {
            case "DECLARED_MEASURED" -> "declared as measured";
            case "MEASURED" -> "measured by " + EgressMeasurement.TOOL + " at " + measuredAt;
            case "DECLARED_NOMINAL" -> "declared nominal";
            default -> source.toLowerCase(Locale.ROOT).replace('_', ' ');
        };
    }
}
