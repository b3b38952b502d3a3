package dev.caplab.query.runs;

import dev.caplab.store.access.RunFilter;
import dev.caplab.store.row.SloRuleValue;
import java.util.List;
import java.util.Optional;

/** Reads runs from the store. */
public interface RunReader {

    /** Runs matching the filter, newest first. */
    List<RunSummary> find(RunFilter filter);

    Optional<RunSummary> get(String runId);

    /** The given runs, those that exist, in the order asked. */
    List<RunSummary> getAll(List<String> runIds);

    /** The SLO rules the run declared, as stored; empty when it declared none or is unknown. */
    List<SloRuleValue> sloRules(String runId);

    /** The latest egress ceiling measured by iperf3 in the run's samples, if any. */
    Optional<EgressCeiling.Measured> measuredEgress(String runId);
}
