package dev.caplab.query.history;

import java.time.Instant;

/**
 * A change in a series, at the first run of the new regime: that run and its version, the means of the regimes
 * either side (each bounded by the neighbouring changes or the history's ends), the change in percent of the mean
 * before, and the t-test p-value that kept it.
 */
public record ChangeMark(String runId, String sutVersion, Instant startedAt, double meanBefore, double meanAfter,
                         double changePercent, double pValue) {
}
