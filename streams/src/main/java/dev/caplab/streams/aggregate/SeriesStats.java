package dev.caplab.streams.aggregate;

import dev.caplab.schema.event.SampleKind;
import java.util.Map;
import java.util.Objects;

/**
 * Statistics of one metric of one source (or label group) over one step. For counters every statistic except
 * {@code count} is of the per-second rate series. {@code count} covers the whole step and {@code warmupCount} its
 * warm-up; every other statistic excludes warm-up (all of a step shorter than its warm-up); {@code last} is the
 * step's last value. NaN where undefined (e.g. a counter with a single sample).
 * {@code outsideSut}: every sample carried the contamination rule's label (e.g. {@code sut=false}), so the series
 * is another process on the host: reported, but never fitted or named the bottleneck of the system under test.
 */
public record SeriesStats(String source, String metric, SampleKind kind, long count, long warmupCount, double sum,
                          double min, double max, double mean, double sustained, double peak, double last,
                          Map<String, Double> quantiles, Double ratePerSecond, boolean outsideSut) {

    public SeriesStats {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(kind, "kind");
        quantiles = Map.copyOf(quantiles);
    }

    /** True when this is a sum over a label group rather than one source. */
    public boolean isGroup() {
        return source.startsWith(GROUP_PREFIX);
    }

    public static final String GROUP_PREFIX = "group:";
}
