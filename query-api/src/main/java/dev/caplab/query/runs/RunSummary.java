package dev.caplab.query.runs;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.caplab.analysis.capacity.EgressCeilings;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunEgressCeiling;
import dev.caplab.store.row.RunRow;
import java.util.Objects;
import java.util.Optional;

/**
 * A run as listed: the stored run ({@link RunRow}, its fields flattened into this one's JSON and CSV) with its
 * conclusion's outcome ({@code maxStableX}, {@code failedX}, {@code bottleneck} as "metric@source"; null until a step
 * closed) and the egress ceiling it declared, which the analysis module's rule resolves (the store does not depend
 * on it).
 */
public record RunSummary(@JsonUnwrapped RunRow run, Double maxStableX, Double failedX, String bottleneck) {

    public RunSummary {
        Objects.requireNonNull(run, "run");
    }

    /** A stored run with the outcome of its conclusion; without one ({@code null}), no outcome yet. */
    public static RunSummary of(RunRow run, RunConclusion conclusion) {
        return conclusion == null ? new RunSummary(run, null, null, null)
                : new RunSummary(run, conclusion.getMaxStableX(), conclusion.getFirstFailingX(),
                        ConclusionView.bottleneckName(conclusion));
    }

    /**
     * The egress ceiling to plan with by the one rule ({@link EgressCeilings}) over what the run declared: measured
     * when known, nominal otherwise (a "1 Gbps" VM may give 100 Mbps). An iperf3 measurement ingested into the run is
     * in its conclusion's ceiling (the run detail's {@code egressCeiling}), not in this list figure.
     */
    @JsonProperty("egressCeilingMbps")
    public Double egressCeilingMbps() {
        return declaredEgressCeiling(run).map(RunEgressCeiling::getMbps).orElse(null);
    }

    /**
     * The egress ceiling of {@code run}: its conclusion's (streams resolved it with any iperf3 measurement), else the
     * one it declared: a run's declared egress stands from its start, before any step closed and streams concluded;
     * null without either.
     */
    public static RunEgressCeiling egressCeiling(RunConclusion conclusion, RunRow run) {
        return conclusion != null && conclusion.getEgressCeiling() != null ? conclusion.getEgressCeiling()
                : declaredEgressCeiling(run).orElse(null);
    }

    /** The egress ceiling by the one rule ({@link EgressCeilings}) over what {@code run} declared; empty without. */
    static Optional<RunEgressCeiling> declaredEgressCeiling(RunRow run) {
        return EgressCeilings.of(run.measuredEgressMbps(), run.nominalEgressMbps(), Optional.empty());
    }
}
