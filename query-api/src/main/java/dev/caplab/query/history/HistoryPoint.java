package dev.caplab.query.history;

import java.time.Instant;

/**
 * One run's value in one series (null when the run has none), and whether a change starts at this run: the CSV form
 * of a history, one line per series and run, oldest run first.
 */
public record HistoryPoint(String series, String runId, Instant startedAt, String sutVersion, Double value,
                           boolean changePoint) {
}
