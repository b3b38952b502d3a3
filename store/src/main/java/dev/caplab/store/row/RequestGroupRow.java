package dev.caplab.store.row;

import java.util.List;

/**
 * Per-request samples of one group (the values of its key labels) in one slot (a time range the caller asked for,
 * 1-based; 0 for samples in none): how many, how many carried a failure label, the exact quantiles of their values
 * (ClickHouse {@code quantilesExact}, in the order asked), and the first and last sample's time in epoch microseconds.
 */
public record RequestGroupRow(int slot, List<String> key, long requests, long failed, List<Double> quantiles,
                              long firstMicros, long lastMicros) {

    public RequestGroupRow {
        key = List.copyOf(key);
        quantiles = List.copyOf(quantiles);
    }
}
