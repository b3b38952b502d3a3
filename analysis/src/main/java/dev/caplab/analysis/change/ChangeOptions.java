package dev.caplab.analysis.change;

/**
 * Otava's knobs: the final p-value bound (default 0.001) and the minimum relative magnitude a change
 * needs to survive the merge (default 0). The split pass uses Otava's relaxed bound: 10× below 0.05,
 * 2× below 0.5, else the same. There is no permutation test and so no permutation count or seed: as in Otava,
 * significance comes from a Student t-test, so a series always gives the same report. There is no minimum segment
 * size either: a change at the newest run is what a run history most needs to show, and a lone outlier run rarely
 * passes p &lt; 0.001 (ShortHistoryTest measures both on 5–30 runs).
 */
public record ChangeOptions(double maxPValue, double minMagnitude) {
    public static final ChangeOptions DEFAULT = new ChangeOptions(0.001, 0.0);

    public ChangeOptions {
        if (!(maxPValue > 0 && maxPValue < 1)) {
            throw new IllegalArgumentException("maxPValue must be in (0,1), got " + maxPValue);
        }
        if (minMagnitude < 0) {
            throw new IllegalArgumentException("minMagnitude must be >= 0, got " + minMagnitude);
        }
    }

    double firstPassPValue() {
        return maxPValue < 0.05 ? maxPValue * 10 : maxPValue < 0.5 ? maxPValue * 2 : maxPValue;
    }
}
