package dev.caplab.query.runs;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Instant;

/**
 * How the API serves a run's {@code RunLateness} in its detail (a Jackson mix-in): the two counts only. How many of
 * a run's samples came late, each folded into a step after it first closed and so amending it (a higher version of
 * its aggregates, verdict and the run's fits), and how many came beyond the allowed lateness (stored raw in
 * {@code samples}, in no aggregate or fit); the run id, time and version are storage's (the detail names the run).
 */
public abstract class RunLatenessMixIn {

    @JsonIgnore
    abstract String getRunId();

    @JsonIgnore
    abstract Instant getUpdatedAt();

    @JsonIgnore
    abstract long getVersion();
}
