package dev.caplab.streams.aggregate;

/** How a step's steady-state ("sustained") value is computed from its post-warm-up samples. */
public enum SustainedStatistic {
    /** The exact median: robust to spikes, the default. */
    MEDIAN,
    /** The mean after trimming a fraction from each tail. */
    TRIMMED_MEAN
}
