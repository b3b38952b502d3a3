package dev.caplab.ingest.locust;

/**
 * What the percentile columns of {@code _stats_history.csv} cover. Locust 2.x writes percentiles since start
 * unless {@code --csv-full-history} is given, then over its current-response-time window (about 10 s) instead.
 */
public enum HistoryMode {
    /** Decide from the file: per-endpoint rows exist only with {@code --csv-full-history}. */
    AUTO,
    CUMULATIVE,
    WINDOW
}
