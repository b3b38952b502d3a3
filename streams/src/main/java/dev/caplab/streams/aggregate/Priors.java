package dev.caplab.streams.aggregate;

import java.util.Map;

/**
 * A step's readings from before it, per series key: each counter's last reading ({@code counters}) and each
 * CUMULATIVE summary's last totals ({@code totals}, {@link ToolTotalsMean#last}); the step's increases run from them
 * ({@link StepStatistics}: a reading and what it reports belong to the window its timestamp falls in).
 */
public record Priors(Map<String, TimedValue> counters, Map<String, Partial.SummaryPoint> totals) {

    /** No readings before the window. */
    public static final Priors NONE = new Priors(Map.of(), Map.of());

    public Priors {
        counters = Map.copyOf(counters);
        totals = Map.copyOf(totals);
    }
}
