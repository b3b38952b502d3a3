package dev.caplab.query.runs;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.caplab.schema.event.RunEgressCeiling;
import dev.caplab.schema.vocabulary.EgressMeasurement;
import java.util.Locale;
import java.util.Objects;

/**
 * The egress ceiling a run is planned against as the API serves it: the {@link RunEgressCeiling} streams resolved
 * (or the run declared), in Mbit/s with where it came from, and those words for people ({@link #text}).
 */
public record EgressCeilingView(@JsonUnwrapped RunEgressCeiling ceiling) {

    public EgressCeilingView {
        Objects.requireNonNull(ceiling, "ceiling");
    }

    /** The view of {@code ceiling}; null without one. */
    public static EgressCeilingView of(RunEgressCeiling ceiling) {
        return ceiling == null ? null : new EgressCeilingView(ceiling);
    }

    /** Where the ceiling came from, for people: e.g. "measured by iperf3 at 2026-12-03T19:41:29Z". */
    @JsonProperty("text")
    public String text() {
        return switch (ceiling.getSource()) {
            case "DECLARED_MEASURED" -> "declared as measured";
            case "MEASURED" -> "measured by " + EgressMeasurement.TOOL + " at " + ceiling.getMeasuredAt();
            case "DECLARED_NOMINAL" -> "declared nominal";
            default -> ceiling.getSource().toLowerCase(Locale.ROOT).replace('_', ' ');
        };
    }
}
