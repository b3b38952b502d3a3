package dev.caplab.streams.aggregate;

import dev.caplab.analysis.throughput.CounterIncrease;
import dev.caplab.analysis.throughput.WindowPercentiles;
import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryWindow;
import dev.caplab.streams.TopologySettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

/**
 * Per-step statistics of every (source, metric) in a step's per-second partials, plus one summed series per
 * requested label group. A pure function of the set of partials (their order does not matter), the steady-state
 * start and the settings; a second belongs to the warm-up when its bucket starts before the steady-state start.
 *
 * <p>Several label sets of one source and metric (a gauge per CPU, container or interface) are one resource: for
 * the resource metrics their levels are summed at aligned instants, like counters' rates; other gauges (a latency
 * per URL) are observations of one distribution and are pooled. Loopback traffic never leaves the host, so
 * {@code net.*} samples of interface {@code lo} are reported as their own {@code <metric>.loopback} series instead
 * of inflating the egress a fit plans against. A tool's total row and its per-endpoint rows are one set of requests:
 * a source's series are {@link CountedOnce counted once} (its total row alone when it wrote one).
 *
 * <p><b>Counters across a boundary.</b> A counter reading reports everything counted since the reading before it,
 * so a reading and the increase it reports belong to the window (step, steady part) its timestamp falls in; at the
 * instant of a step change that is the new step, as for every sample. A window's increase therefore runs from the
 * last reading before it ({@code priors}: the step's, or the last warm-up reading for the steady part) to its own
 * last reading, over the time between them: a 503 first reported by a reading at 160 users counts at 160 users,
 * never at 80, and consecutive steps' increases add up to the tool's own counter delta, nothing lost or counted
 * twice at a boundary.
 */
public final class StepStatistics {

    /** Suffix of the metric that loopback {@code net.*} samples are aggregated under. */
    public static final String LOOPBACK_SUFFIX = ".loopback";
    private static final String LOOPBACK = "lo";

    private StepStatistics() {
    }

    /**
     * How far before a step its counters' previous readings are looked for: a reading older than this (a scrape
     * interval beyond five minutes, or a series new in the step) leaves the step's increase from its own first one.
     */
    public static final long COUNTER_LOOKBACK_MICROS = 300_000_000L;

    /** Statistics of the partials of one window that has no counter readings before it. */
    public static List<SeriesStats> of(List<Partial> partials, long steadyFromMicros, TopologySettings settings) {
        return of(partials, Map.of(), steadyFromMicros, settings);
    }

    /**
     * Statistics of the partials of one step (any order: they are grouped and sorted here); {@code priors} holds, per
     * counter series key, its last reading before the step (see the class comment).
     */
    public static List<SeriesStats> of(List<Partial> partials, Map<String, TimedValue> priors, long steadyFromMicros,
            TopologySettings settings) {
        Map<String, List<Partial>> bySourceMetric = new TreeMap<>();
        for (Partial p : CountedOnce.select(partials)) {
            bySourceMetric.computeIfAbsent(p.source() + '\u0000' + aggregatedMetric(p), k -> new ArrayList<>()).add(p);
        }
        List<SeriesStats> out = new ArrayList<>();
        for (List<Partial> group : bySourceMetric.values()) {
            Partial first = group.getFirst();
            out.add(stats(first.source(), aggregatedMetric(first), first.kind(), group, priors, steadyFromMicros,
                    settings));
        }
        for (String labelKey : settings.groupLabels()) {
            Map<String, List<Partial>> byGroup = new TreeMap<>();
            for (Partial p : partials) {
                String value = p.labels().get(labelKey);
                if (value != null && p.kind() != SampleKind.SUMMARY) {
                    byGroup.computeIfAbsent(value + '\u0000' + p.metric(), k -> new ArrayList<>()).add(p);
                }
            }
            for (List<Partial> group : byGroup.values()) {
                Partial first = group.getFirst();
                String source = SeriesStats.GROUP_PREFIX + labelKey + "=" + first.labels().get(labelKey);
                out.add(stats(source, first.metric(), first.kind(), group, priors, steadyFromMicros, settings));
            }
        }
        return out;
    }

    /** The metric a partial is aggregated under: its own, or {@code <metric>.loopback} for loopback traffic. */
    static String aggregatedMetric(Partial p) {
        return p.metric().startsWith("net.") && LOOPBACK.equals(p.labels().get(LabelNames.INTERFACE))
                ? p.metric() + LOOPBACK_SUFFIX : p.metric();
    }

    /**
     * Statistics of partials that all share one metric; several series (sources, label sets) are summed or pooled.
     * The per-second values that every statistic but the counts is drawn from, after warm-up: a single or pooled
     * gauge's mean in each second; the aligned sum of several resource series' per-second means; a counter's rates
     * between consecutive points (summed across series per second). A raw gauge's sum, min, max and mean come from
     * its steady partials exactly, its quantiles from their merged sketch, never averaged. Warm-up seconds only count
     * ({@code warmupCount}): a rule on the mean or the max judges the step's steady state, as the sustained value
     * does, never the ramp-up before it.
     */
    static SeriesStats stats(String source, String metric, SampleKind kind, List<Partial> group,
            Map<String, TimedValue> priors, long steadyFrom, TopologySettings settings) {
        List<Partial> partials = new ArrayList<>(group);
        partials.sort(java.util.Comparator.comparingLong(Partial::bucketMicros).thenComparing(Partial::seriesKey));
        Map<String, List<Partial>> bySeries = new TreeMap<>();
        long count = 0;
        long warmup = 0;
        for (Partial p : partials) {
            bySeries.computeIfAbsent(p.seriesKey(), k -> new ArrayList<>()).add(p);
            count += p.count();
            warmup += p.bucketMicros() < steadyFrom ? p.count() : 0;
        }
        Double ratePerSecond = null;
        List<TimedValue> analysed;
        boolean raw = false;
        if (kind == SampleKind.COUNTER) {
            Map<String, List<TimedValue>> rates = new TreeMap<>();
            Map<String, List<TimedValue>> points = counterReadings(bySeries, priors);
            points.forEach((k, pts) -> rates.put(k, Series.rates(pts)));
            analysed = combine(rates, settings);
            ratePerSecond = steadyRate(points, steadyFrom);
        } else if (bySeries.size() > 1 && (source.startsWith(SeriesStats.GROUP_PREFIX)
                || settings.resourceMetrics().contains(metric))) {
            Map<String, List<TimedValue>> means = new TreeMap<>();
            bySeries.forEach((k, v) -> means.put(k, v.stream()
                    .map(p -> new TimedValue(p.bucketMicros(), p.mean())).toList()));
            analysed = Series.alignedSum(means, settings.bucketMicros());
        } else {
            analysed = pooledMeans(partials);
            raw = true;
        }
        List<TimedValue> steadySeries = Series.from(analysed, steadyFrom);
        // A step shorter than its warm-up still reports figures, from all of it, rather than NaN.
        double[] steady = steadySeries.isEmpty() ? Series.values(analysed) : Series.values(steadySeries);
        double sum;
        double min;
        double max;
        double mean;
        if (raw) {
            boolean anySteady = partials.stream().anyMatch(p -> p.bucketMicros() >= steadyFrom);
            ExactSum total = new ExactSum();
            long n = 0;
            min = Double.NaN;
            max = Double.NaN;
            for (Partial p : partials) {
                if (anySteady && p.bucketMicros() < steadyFrom) {
                    continue;
                }
                total.add(p.sum);
                n += p.count();
                min = Double.isNaN(min) ? p.min() : Math.min(min, p.min());
                max = Double.isNaN(max) ? p.max() : Math.max(max, p.max());
            }
            sum = total.value();
            mean = n == 0 ? Double.NaN : sum / n;
        } else {
            ExactSum total = new ExactSum();
            for (double v : steady) {
                total.add(v);
            }
            sum = total.value();
            min = Distribution.min(steady);
            max = Distribution.max(steady);
            mean = steady.length == 0 ? Double.NaN : sum / steady.length;
        }
        Map<String, Double> quantiles;
        if (kind == SampleKind.SUMMARY) {
            quantiles = summaryQuantiles(partials, steadyFrom);
        } else if (raw) {
            QuantileSketch merged = QuantileSketch.empty();
            boolean anySteady = partials.stream().anyMatch(p -> p.bucketMicros() >= steadyFrom);
            partials.stream().filter(p -> !anySteady || p.bucketMicros() >= steadyFrom)
                    .forEach(p -> merged.merge(p.sketch()));
            quantiles = merged.quantiles();
        } else {
            QuantileSketch sketch = QuantileSketch.empty();
            for (double v : steady) {
                sketch.add(v);
            }
            quantiles = sketch.quantiles();
        }
        double last = analysed.isEmpty() ? Double.NaN : analysed.getLast().value();
        return new SeriesStats(source, metric, kind, count, warmup, sum, min, max, mean,
                Distribution.sustained(steady, settings.sustained(), settings.trimFraction()), Distribution.max(steady),
                last, quantiles, ratePerSecond, outsideSut(partials, settings));
    }

    /** Per second, the mean of every sample of the partials in it (several label sets pooled). */
    private static List<TimedValue> pooledMeans(List<Partial> sortedByBucket) {
        List<TimedValue> out = new ArrayList<>();
        int i = 0;
        while (i < sortedByBucket.size()) {
            long bucket = sortedByBucket.get(i).bucketMicros();
            ExactSum sum = new ExactSum();
            long n = 0;
            for (; i < sortedByBucket.size() && sortedByBucket.get(i).bucketMicros() == bucket; i++) {
                sum.add(sortedByBucket.get(i).sum);
                n += sortedByBucket.get(i).count();
            }
            if (n > 0) {
                out.add(new TimedValue(bucket, sum.value() / n));
            }
        }
        return out;
    }

    private static boolean outsideSut(List<Partial> partials, TopologySettings settings) {
        String key = settings.contamination().labelKey();
        String value = settings.contamination().labelValue();
        return !partials.isEmpty() && partials.stream().allMatch(p -> value.equals(p.labels().get(key)));
    }

    private static List<TimedValue> combine(Map<String, List<TimedValue>> series, TopologySettings settings) {
        return series.size() == 1 ? series.values().iterator().next()
                : Series.alignedSum(series, settings.bucketMicros());
    }

    /** Per series, its readings in time order, after its last reading before the step when there is one. */
    private static Map<String, List<TimedValue>> counterReadings(Map<String, List<Partial>> bySeries,
            Map<String, TimedValue> priors) {
        Map<String, List<TimedValue>> points = new TreeMap<>();
        bySeries.forEach((k, v) -> {
            List<TimedValue> pts = new ArrayList<>();
            v.forEach(p -> pts.addAll(p.points()));
            TimedValue prior = priors.get(k);
            if (prior != null && !pts.isEmpty() && prior.timestampMicros() < pts.getFirst().timestampMicros()) {
                pts.addFirst(prior);
            }
            points.put(k, pts);
        });
        return points;
    }

    /**
     * Σ over counter series of the increase their steady readings report, from the reading before the steady part:
     * what the tool itself counted in those seconds (requests, failures), not a rate times a duration, which a
     * reading the tool skipped at the step's end would inflate.
     */
    public static double steadyIncrease(List<Partial> counters, Map<String, TimedValue> priors, long steadyFrom) {
        List<Partial> sorted = new ArrayList<>(counters);
        sorted.sort(java.util.Comparator.comparingLong(Partial::bucketMicros).thenComparing(Partial::seriesKey));
        Map<String, List<Partial>> bySeries = new TreeMap<>();
        sorted.forEach(p -> bySeries.computeIfAbsent(p.seriesKey(), k -> new ArrayList<>()).add(p));
        double total = 0;
        for (List<TimedValue> s : counterReadings(bySeries, priors).values()) {
            List<TimedValue> steady = steadySpan(s, TimedValue::timestampMicros, steadyFrom);
            if (steady.size() >= 2) {
                total += CounterIncrease.increase(Series.values(steady));
            }
        }
        return total;
    }

    /**
     * Σ over series of (increase reported by the steady part's readings) / (time from the reading before them to
     * their last): the step's mean counter rate per second.
     */
    private static Double steadyRate(Map<String, List<TimedValue>> bySeries, long steadyFrom) {
        double total = 0;
        boolean any = false;
        for (List<TimedValue> s : bySeries.values()) {
            List<TimedValue> steady = steadySpan(s, TimedValue::timestampMicros, steadyFrom);
            if (steady.size() < 2) {
                continue;
            }
            long dt = steady.getLast().timestampMicros() - steady.getFirst().timestampMicros();
            if (dt <= 0) {
                continue;
            }
            total += CounterIncrease.increase(Series.values(steady)) * 1e6 / dt;
            any = true;
        }
        return any ? total : null;
    }

    /**
     * The readings a window's steady increase runs over, from time-sorted {@code readings} (a step's, after its
     * prior): the last one before {@code steadyFrom} and every one after it; all of them when that leaves fewer than
     * two (a step shorter than its warm-up).
     */
    static <T> List<T> steadySpan(List<T> readings, ToLongFunction<T> time, long steadyFrom) {
        int before = 0;
        while (before + 1 < readings.size() && time.applyAsLong(readings.get(before + 1)) < steadyFrom) {
            before++;
        }
        List<T> steady = readings.subList(before, readings.size());
        return steady.size() < 2 ? readings : steady;
    }

    /**
     * Per quantile, the median of the values the tool reported for its WINDOW summaries among {@code points}
     * (CUMULATIVE ones are skipped): how a step reads a tool's own window percentiles, never their average.
     */
    static Map<String, Double> windowMedians(List<Partial.SummaryPoint> points) {
        return WindowPercentiles.combine(points.stream().filter(s -> s.window() == SummaryWindow.WINDOW)
                .map(Partial.SummaryPoint::quantiles).toList());
    }

    /** WINDOW summaries: the median over steady windows of each quantile; CUMULATIVE: the last one's. */
    private static Map<String, Double> summaryQuantiles(List<Partial> partials, long steadyFrom) {
        List<Partial.SummaryPoint> all = new ArrayList<>();
        partials.forEach(p -> all.addAll(p.summaries()));
        all.sort(java.util.Comparator.comparingLong(Partial.SummaryPoint::timestampMicros)
                .thenComparing(p -> p.quantiles().toString()));
        List<Partial.SummaryPoint> steady = all.stream().filter(s -> s.timestampMicros() >= steadyFrom).toList();
        if (steady.isEmpty()) {
            steady = all;
        }
        Partial.SummaryPoint lastCumulative = null;
        for (Partial.SummaryPoint s : steady) {
            if (s.window() == SummaryWindow.CUMULATIVE) {
                lastCumulative = s;
            }
        }
        Map<String, Double> out = new LinkedHashMap<>(windowMedians(steady));
        if (lastCumulative != null) {
            lastCumulative.quantiles().forEach(out::putIfAbsent);
        }
        return out;
    }
}
