package dev.caplab.analysis.verdict;

import java.util.Objects;
import java.util.Optional;

/**
 * A step passes this rule when statistic(metric) comparator threshold holds, e.g. p95(http_req_duration) LE 500;
 * the analysis-side twin of the Avro {@code SloRule} in schema/src/main/avro/common.avsc.
 *
 * @param statistic sustained, peak, mean, min, max, p50, p90, p95, p99, rate, last
 * @param source    when present, only observations from this source are judged; when empty, every source must pass
 */
public record SloRule(String name, String metric, String statistic, SloComparator comparator, double threshold,
                      Optional<String> source) {
    public SloRule {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(statistic, "statistic");
        Objects.requireNonNull(comparator, "comparator");
        Objects.requireNonNull(source, "source");
        if (!Double.isFinite(threshold)) {
            throw new IllegalArgumentException("rule " + name + ": threshold must be finite, got " + threshold);
        }
    }

    /** A rule over every source. */
    public static SloRule of(String name, String metric, String statistic, SloComparator comparator, double threshold) {
        return new SloRule(name, metric, statistic, comparator, threshold, Optional.empty());
    }
}
