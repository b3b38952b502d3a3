package dev.caplab.query.history;

import java.util.function.BiFunction;

/**
 * The series a run history draws, each read from a run's stored conclusion and fits: the chosen resource's slope and
 * knee, the max stable load, and the throughput limit (the run conclusion's). A new series is one more
 * constant here; the API, CSV, change detection and page pick it up from this list.
 */
public enum HistorySeries {

    /** Below-knee slope of the chosen resource: resource units per unit of x. */
    SLOPE("slope", "slope below the knee", (run, resource) -> line(run, resource).slopePerX()),
    /** The chosen resource's first breakpoint, in x. */
    KNEE("knee", "knee x", (run, resource) -> line(run, resource).kneeX()),
    /** x of the last passing step before the first failing one. */
    MAX_STABLE_LOAD("maxStableLoad", "max stable x", (run, resource) -> run.maxStableX()),
    /** x where the request rate stopped growing with load: the run conclusion's throughput limit. */
    THROUGHPUT_LIMIT("throughputLimit", "throughput limit x", (run, resource) -> run.throughputLimitX());

    private static final RunMetrics.ResourceLine NONE = new RunMetrics.ResourceLine(null, null);

    private final String key;
    private final String label;
    private final BiFunction<RunMetrics, String, Double> value;

    HistorySeries(String key, String label, BiFunction<RunMetrics, String, Double> value) {
        this.key = key;
        this.label = label;
        this.value = value;
    }

    /** The series' name in JSON and CSV. */
    public String key() {
        return key;
    }

    public String label() {
        return label;
    }

    /** The run's value, or null when the run has none (no fit of the resource, no breakpoint, no passing step). */
    Double valueOf(RunMetrics run, String resource) {
        Double v = value.apply(run, resource);
        return v == null || !Double.isFinite(v) ? null : v;
    }

    private static RunMetrics.ResourceLine line(RunMetrics run, String resource) {
        return resource == null ? NONE : run.resources().getOrDefault(resource, NONE);
    }
}
