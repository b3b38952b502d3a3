package dev.caplab.query.runs;

import dev.caplab.schema.vocabulary.EgressMeasurement;
import dev.caplab.store.row.EgressCeilingValue;
import dev.caplab.store.row.RunRow;
import java.time.Instant;

/**
 * The egress ceiling a run is planned against and where it came from, as streams resolved it and stored it in the
 * run conclusion (analysis EffectiveEgress: a measured figure the run declared, else the latest iperf3 measurement
 * ingested into it, else the declared nominal figure), with its words for people.
 *
 * @param mbps       the ceiling in Mbit/s
 * @param source     DECLARED_MEASURED, MEASURED (by iperf3) or DECLARED_NOMINAL
 * @param measuredAt when iperf3 measured it (MEASURED only)
 * @param text       for people, e.g. "measured by iperf3 at 2026-12-03T19:41:29Z"
 */
public record EgressCeiling(double mbps, String source, Instant measuredAt, String text) {

    /**
     * The ceiling of the run's conclusion, else the one it declared ({@link RunSummary#declaredEgressCeiling}): a
     * run's declared egress stands from its start, before any step closed and streams concluded; null without either.
     */
    public static EgressCeiling of(EgressCeilingValue concluded, RunRow run) {
        return concluded != null ? of(concluded) : RunSummary.declaredEgressCeiling(run)
                .map(e -> of(new EgressCeilingValue(e.mbps(), e.source().name(), e.measuredAt().orElse(null))))
                .orElse(null);
    }

    /** The stored ceiling with its words. */
    public static EgressCeiling of(EgressCeilingValue stored) {
        String text = switch (stored.source()) {
            case "DECLARED_MEASURED" -> "declared as measured";
            case "MEASURED" -> "measured by " + EgressMeasurement.TOOL + " at " + stored.measuredAt();
            case "DECLARED_NOMINAL" -> "declared nominal";
            default -> stored.source().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        };
        return new EgressCeiling(stored.mbps(), stored.source(), stored.measuredAt(), text);
    }
}
