package dev.caplab.query.runs;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunEgressCeiling;
import dev.caplab.schema.event.RunThroughputLimit;

/**
 * What the API does not serve of a {@link RunConclusion} as the conclusion: its run id (the run detail names the run)
 * and its throughput limit and egress ceiling (served as the run's {@code throughputLimit} and {@code egressCeiling}).
 */
public interface ConclusionMixIn {

    @JsonIgnore
    String getRunId();

    @JsonIgnore
    RunThroughputLimit getThroughputLimit();

    @JsonIgnore
    RunEgressCeiling getEgressCeiling();
}
