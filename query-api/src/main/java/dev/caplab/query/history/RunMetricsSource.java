package dev.caplab.query.history;

import dev.caplab.query.runs.RunSummary;

/**
 * Where the run history reads each run's conclusions. The one place to switch when runs carry a stored conclusion
 * (issue 14 item 1): implement this over it and retire {@link DetailRunMetrics}.
 */
public interface RunMetricsSource {

    RunMetrics metricsOf(RunSummary run);
}
