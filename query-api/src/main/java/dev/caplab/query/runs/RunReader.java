package dev.caplab.query.runs;

import dev.caplab.store.access.RunFilter;
import java.util.List;
import java.util.Optional;

/** Reads runs from the store. */
public interface RunReader {

    /** Runs matching the filter, newest first. */
    List<RunSummary> find(RunFilter filter);

    Optional<RunSummary> get(String runId);

    /** The given runs, those that exist, in the order asked. */
    List<RunSummary> getAll(List<String> runIds);

    /** The latest egress ceiling measured by iperf3 in the run's samples, if any. */
    Optional<EgressCeiling.Measured> measuredEgress(String runId);
}
