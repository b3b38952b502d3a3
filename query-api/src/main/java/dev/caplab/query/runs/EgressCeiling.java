package dev.caplab.query.runs;

import dev.caplab.schema.vocabulary.EgressMeasurement;
import java.time.Instant;
import java.util.Optional;

/**
 * The egress ceiling a run is planned against and where it came from: a measured figure the run declared, else the
 * latest iperf3 measurement ingested into it ({@link EgressMeasurement}), else the declared nominal figure — the
 * same order the fits use (streams' MeasuredCeilings).
 *
 * @param mbps       the ceiling in Mbit/s
 * @param source     DECLARED_MEASURED, MEASURED (by iperf3) or DECLARED_NOMINAL
 * @param measuredAt when iperf3 measured it (MEASURED only)
 * @param text       for people, e.g. "measured by iperf3 at 2026-12-03T19:41:29Z"
 */
public record EgressCeiling(double mbps, String source, Instant measuredAt, String text) {

    /** The ceiling of {@code run} given its latest iperf3 measurement, if any. */
    public static Optional<EgressCeiling> of(RunSummary run, Optional<Measured> measured) {
        if (run.measuredEgressMbps() != null) {
            return Optional.of(new EgressCeiling(run.measuredEgressMbps(), "DECLARED_MEASURED", null,
                    "declared as measured"));
        }
        if (measured.isPresent()) {
            Measured m = measured.get();
            return Optional.of(new EgressCeiling(m.mbps(), "MEASURED", m.at(), "measured by "
                    + EgressMeasurement.TOOL + " at " + m.at()));
        }
        return Optional.ofNullable(run.nominalEgressMbps())
                .map(n -> new EgressCeiling(n, "DECLARED_NOMINAL", null, "declared nominal"));
    }

    /** An iperf3 measurement of {@code mbps} Mbit/s at {@code at}. */
    public record Measured(double mbps, Instant at) {
    }
}
