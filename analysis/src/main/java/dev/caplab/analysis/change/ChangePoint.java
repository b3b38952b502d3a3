package dev.caplab.analysis.change;

/**
 * A change in a time-ordered series at {@code index} (the first value of the new regime), with Otava's
 * statistics: magnitude max(|r/l − 1|, |l/r − 1|), means and population standard deviations either side,
 * and the two-sided Student t-test p-value.
 */
public record ChangePoint(int index, double magnitude, double forwardChangePercent, double meanBefore,
                          double stddevBefore, double meanAfter, double stddevAfter, double tStatistic, double pValue) {
    public ChangePoint {
        if (index < 1) {
            throw new IllegalArgumentException("a change point splits the series: index must be >= 1, got " + index);
        }
        if (!(pValue >= 0 && pValue <= 1)) {
            throw new IllegalArgumentException("p-value outside [0,1] at index " + index + ": " + pValue);
        }
    }
}
