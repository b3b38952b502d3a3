package dev.caplab.query.history;

import dev.caplab.query.runs.RunSummary;
import java.util.List;

/** Where the run history reads what each run of a cohort concluded. */
public interface RunMetricsSource {

    /** One {@link RunMetrics} per run, in the order of {@code runs}. */
    List<RunMetrics> metricsOf(List<RunSummary> runs);
}
