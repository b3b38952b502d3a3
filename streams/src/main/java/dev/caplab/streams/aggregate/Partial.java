package dev.caplab.streams.aggregate;

import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryWindow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The partial aggregate of one series (source, metric, labels) over one 1-second bucket of one run: count, exact sum
 * and sum of squares, min, max, a {@link QuantileSketch}, and for counters and summaries their few (time, value)
 * points, kept sorted so rates and resets are computed between consecutive points at merge time. For WINDOW summaries
 * it also adds up the observations each covers as its tool counted them ({@link #windowCount()}, every one of them,
 * however many summary points are kept), e.g. the requests of a JMeter backend-listener window. Every field is a
 * commutative, associative fold of the samples: the partial is the same whatever order they arrived in. Mutable,
 * confined to one processor call.
 */
public final class Partial {

    /** Counter points kept per series-second; beyond, the latest (by time, then value) are left out of rates. */
    public static final int MAX_COUNTER_POINTS = 64;
    /** Summary points kept per series-second; beyond, the latest are left out of summary quantiles. */
    public static final int MAX_SUMMARY_POINTS = 4;
    /** {@link #windowCount} of a partial read from a format that did not keep it: not known, never a zero. */
    static final long UNKNOWN_WINDOW_COUNT = -1;
    private static final Comparator<TimedValue> POINT_ORDER = Comparator.comparingLong(TimedValue::timestampMicros)
            .thenComparingDouble(TimedValue::value);
    private static final Comparator<SummaryPoint> SUMMARY_ORDER = Comparator.comparingLong(SummaryPoint::timestampMicros)
            .thenComparing(p -> p.quantiles().toString()).thenComparingLong(SummaryPoint::count)
            .thenComparingDouble(SummaryPoint::mean);

    /**
     * One summary sample's statistics: its quantiles, and for a CUMULATIVE summary whose tool gave a mean its totals
     * since start, the observations counted and their mean (e.g. Locust's {@code Total Request Count} and {@code Total
     * Average Response Time}), from which a step's exact mean follows; otherwise {@code count} 0 and {@code mean} NaN
     * (a WINDOW summary's counts are {@link #windowCount() added up} instead).
     */
    public record SummaryPoint(long timestampMicros, SummaryWindow window, Map<String, Double> quantiles, long count,
                               double mean) {
        public SummaryPoint {
            Objects.requireNonNull(window, "window");
            quantiles = new TreeMap<>(quantiles);
            if (count < 0) {
                throw new IllegalArgumentException("summary count must be >= 0: " + count);
            }
        }

        /** A summary point without the tool's count and mean. */
        public SummaryPoint(long timestampMicros, SummaryWindow window, Map<String, Double> quantiles) {
            this(timestampMicros, window, quantiles, 0, Double.NaN);
        }

        /** True when the tool gave the mean of what it counted: with the count, a total (count × mean). */
        public boolean hasTotals() {
            return !Double.isNaN(mean);
        }
    }

    final long bucketMicros;
    final SeriesId series;
    final SampleKind kind;
    long count;
    final ExactSum sum;
    final ExactSum sumSquares;
    double min;
    double max;
    final QuantileSketch sketch;
    final List<TimedValue> points;
    final List<SummaryPoint> summaries;
    long windowCount;

    Partial(long bucketMicros, SeriesId series, SampleKind kind, long count, ExactSum sum, ExactSum sumSquares,
            double min, double max, QuantileSketch sketch, List<TimedValue> points, List<SummaryPoint> summaries,
            long windowCount) {
        this.bucketMicros = bucketMicros;
        this.series = Objects.requireNonNull(series, "series");
        this.kind = Objects.requireNonNull(kind, "kind");
        this.count = count;
        this.sum = sum;
        this.sumSquares = sumSquares;
        this.min = min;
        this.max = max;
        this.sketch = sketch;
        this.points = new ArrayList<>(points);
        this.summaries = new ArrayList<>(summaries);
        this.windowCount = windowCount;
    }

    /** An empty partial of the series {@code s} belongs to, for the bucket starting at {@code bucketMicros}. */
    public static Partial empty(long bucketMicros, BufferedSample s) {
        return new Partial(bucketMicros, s.series(), s.kind(), 0, new ExactSum(), new ExactSum(), Double.NaN,
                Double.NaN, QuantileSketch.empty(), List.of(), List.of(), 0);
    }

    /** Folds one sample of this series and bucket in. */
    public void add(BufferedSample s) {
        count++;
        double v = s.value();
        sum.add(v);
        sumSquares.add(v * v);
        min = Double.isNaN(min) ? v : Math.min(min, v);
        max = Double.isNaN(max) ? v : Math.max(max, v);
        sketch.add(v);
        if (kind == SampleKind.COUNTER) {
            insert(points, new TimedValue(s.timestampMicros(), v), POINT_ORDER, MAX_COUNTER_POINTS);
        } else if (s.summaryWindow() != null) {
            if (s.summaryWindow() == SummaryWindow.WINDOW && windowCount != UNKNOWN_WINDOW_COUNT) {
                windowCount += s.summaryCount();
            }
            boolean totals = s.summaryWindow() == SummaryWindow.CUMULATIVE && !Double.isNaN(s.summaryMean());
            insert(summaries, new SummaryPoint(s.timestampMicros(), s.summaryWindow(), s.summaryQuantiles(),
                    totals ? s.summaryCount() : 0, totals ? s.summaryMean() : Double.NaN), SUMMARY_ORDER,
                    MAX_SUMMARY_POINTS);
        }
    }

    /** Folds another partial of the same series and bucket in (a commutative, associative merge). */
    public void merge(Partial o) {
        if (!o.series.key().equals(series.key()) || o.bucketMicros != bucketMicros) {
            throw new IllegalArgumentException("cannot merge the partial of " + o.seriesKey() + " @" + o.bucketMicros
                    + " into " + seriesKey() + " @" + bucketMicros);
        }
        count += o.count;
        sum.add(o.sum);
        sumSquares.add(o.sumSquares);
        min = Double.isNaN(min) ? o.min : Double.isNaN(o.min) ? min : Math.min(min, o.min);
        max = Double.isNaN(max) ? o.max : Double.isNaN(o.max) ? max : Math.max(max, o.max);
        sketch.merge(o.sketch);
        o.points.forEach(p -> insert(points, p, POINT_ORDER, MAX_COUNTER_POINTS));
        o.summaries.forEach(p -> insert(summaries, p, SUMMARY_ORDER, MAX_SUMMARY_POINTS));
        windowCount = windowCount == UNKNOWN_WINDOW_COUNT || o.windowCount == UNKNOWN_WINDOW_COUNT
                ? UNKNOWN_WINDOW_COUNT : windowCount + o.windowCount;
    }

    // Keeps the list sorted and its first `cap` elements: which ones are kept depends only on the set folded in.
    private static <T> void insert(List<T> list, T item, Comparator<T> order, int cap) {
        int i = 0;
        while (i < list.size() && order.compare(list.get(i), item) <= 0) {
            i++;
        }
        if (i < cap) {
            list.add(i, item);
            if (list.size() > cap) {
                list.removeLast();
            }
        }
    }

    /** The identity of the series: source, metric and labels (as {@link BufferedSample#seriesKey()}). */
    public String seriesKey() {
        return series.key();
    }

    public long bucketMicros() {
        return bucketMicros;
    }

    public SeriesId series() {
        return series;
    }

    public String source() {
        return series.source();
    }

    public String metric() {
        return series.metric();
    }

    public SampleKind kind() {
        return kind;
    }

    /** The series' labels in key order (unmodifiable). */
    public Map<String, String> labels() {
        return series.labels();
    }

    public long count() {
        return count;
    }

    public double sum() {
        return sum.value();
    }

    public double sumOfSquares() {
        return sumSquares.value();
    }

    public double min() {
        return min;
    }

    public double max() {
        return max;
    }

    /** The mean of this series over this second. */
    public double mean() {
        return count == 0 ? Double.NaN : sum.value() / count;
    }

    public QuantileSketch sketch() {
        return sketch;
    }

    public List<TimedValue> points() {
        return List.copyOf(points);
    }

    public List<SummaryPoint> summaries() {
        return List.copyOf(summaries);
    }

    /** True when this partial holds at least one WINDOW summary. */
    boolean hasWindowSummaries() {
        return summaries.stream().anyMatch(p -> p.window() == SummaryWindow.WINDOW);
    }

    /**
     * The observations its WINDOW summaries cover, added up as their tool counted them (0 when it gave no counts);
     * empty when not known (read from state written before partials kept it).
     */
    public OptionalLong windowCount() {
        return windowCount == UNKNOWN_WINDOW_COUNT ? OptionalLong.empty() : OptionalLong.of(windowCount);
    }
}
