package dev.caplab.streams.aggregate;

import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryWindow;
import dev.caplab.streams.TopologySettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per-step statistics of every (source, metric) in a step's samples, plus one summed series per requested label
 * group. A pure function of the samples (in event-time order), the steady-state start and the settings.
 *
 * <p>Several label sets of one source and metric (a gauge per CPU, container or interface) are one resource: for
 * the resource metrics their levels are summed at aligned instants, like counters' rates; other gauges (a latency
 * per URL) are observations of one distribution and are pooled. Loopback traffic never leaves the host, so
 * {@code net.*} samples of interface {@code lo} are reported as their own {@code <metric>.loopback} series instead
 * of inflating the egress a fit plans against.
 */
public final class StepStatistics {

    /** Suffix of the metric that loopback {@code net.*} samples are aggregated under. */
    public static final String LOOPBACK_SUFFIX = ".loopback";
    private static final String INTERFACE_LABEL = "interface";
    private static final String LOOPBACK = "lo";

    private StepStatistics() {
    }

    public static List<SeriesStats> of(List<BufferedSample> samples, long steadyFromMicros, TopologySettings settings) {
        Map<String, List<BufferedSample>> bySourceMetric = new TreeMap<>();
        for (BufferedSample s : samples) {
            bySourceMetric.computeIfAbsent(s.source() + '\u0000' + aggregatedMetric(s), k -> new ArrayList<>()).add(s);
        }
        List<SeriesStats> out = new ArrayList<>();
        for (List<BufferedSample> group : bySourceMetric.values()) {
            BufferedSample first = group.getFirst();
            out.add(stats(first.source(), aggregatedMetric(first), first.kind(), group, steadyFromMicros, settings));
        }
        for (String labelKey : settings.groupLabels()) {
            Map<String, List<BufferedSample>> byGroup = new TreeMap<>();
            for (BufferedSample s : samples) {
                String value = s.labels().get(labelKey);
                if (value != null && s.kind() != SampleKind.SUMMARY) {
                    byGroup.computeIfAbsent(value + '\u0000' + s.metric(), k -> new ArrayList<>()).add(s);
                }
            }
            for (List<BufferedSample> group : byGroup.values()) {
                BufferedSample first = group.getFirst();
                String source = SeriesStats.GROUP_PREFIX + labelKey + "=" + first.labels().get(labelKey);
                out.add(stats(source, first.metric(), first.kind(), group, steadyFromMicros, settings));
            }
        }
        return out;
    }

    /** The metric a sample is aggregated under: its own, or {@code <metric>.loopback} for loopback traffic. */
    static String aggregatedMetric(BufferedSample s) {
        return s.metric().startsWith("net.") && LOOPBACK.equals(s.labels().get(INTERFACE_LABEL))
                ? s.metric() + LOOPBACK_SUFFIX : s.metric();
    }

    /** Statistics of samples that all share one metric; several series (sources, label sets) are summed. */
    static SeriesStats stats(String source, String metric, SampleKind kind, List<BufferedSample> samples,
            long steadyFrom, TopologySettings settings) {
        Map<String, List<TimedValue>> bySeries = new TreeMap<>();
        for (BufferedSample s : samples) {
            bySeries.computeIfAbsent(s.seriesKey(), k -> new ArrayList<>())
                    .add(new TimedValue(s.timestampMicros(), s.value()));
        }
        long warmup = samples.stream().filter(s -> s.timestampMicros() < steadyFrom).count();
        Double ratePerSecond = null;
        List<TimedValue> analysed;
        if (kind == SampleKind.COUNTER) {
            Map<String, List<TimedValue>> rates = new TreeMap<>();
            bySeries.forEach((k, v) -> rates.put(k, Series.rates(v)));
            analysed = combine(rates, settings);
            ratePerSecond = steadyRate(bySeries, steadyFrom);
        } else if (bySeries.size() > 1 && (source.startsWith(SeriesStats.GROUP_PREFIX)
                || settings.resourceMetrics().contains(metric))) {
            analysed = Series.alignedSum(bySeries, settings.bucketMicros());
        } else {
            analysed = samples.stream().map(s -> new TimedValue(s.timestampMicros(), s.value())).toList();
        }
        double[] all = Series.values(analysed);
        List<TimedValue> steadySeries = Series.from(analysed, steadyFrom);
        // A step shorter than its warm-up still reports figures, from all samples, rather than NaN.
        double[] steady = steadySeries.isEmpty() ? all : Series.values(steadySeries);
        double sum = 0;
        for (double v : all) {
            sum += v;
        }
        Map<String, Double> quantiles = kind == SampleKind.SUMMARY
                ? summaryQuantiles(samples, steadyFrom) : Distribution.quantiles(steady);
        double last = analysed.isEmpty() ? Double.NaN : analysed.getLast().value();
        return new SeriesStats(source, metric, kind, samples.size(), warmup, sum, Distribution.min(all),
                Distribution.max(all), all.length == 0 ? Double.NaN : sum / all.length,
                Distribution.sustained(steady, settings.sustained(), settings.trimFraction()), Distribution.max(steady),
                last, quantiles, ratePerSecond, outsideSut(samples, settings));
    }

    private static boolean outsideSut(List<BufferedSample> samples, TopologySettings settings) {
        String key = settings.contamination().labelKey();
        String value = settings.contamination().labelValue();
        return !samples.isEmpty() && samples.stream().allMatch(s -> value.equals(s.labels().get(key)));
    }

    private static List<TimedValue> combine(Map<String, List<TimedValue>> series, TopologySettings settings) {
        return series.size() == 1 ? series.values().iterator().next()
                : Series.alignedSum(series, settings.bucketMicros());
    }

    /** Σ over series of (increase over the steady part) / (its duration): the step's mean counter rate per second. */
    private static Double steadyRate(Map<String, List<TimedValue>> bySeries, long steadyFrom) {
        double total = 0;
        boolean any = false;
        for (List<TimedValue> s : bySeries.values()) {
            List<TimedValue> steady = Series.from(s, steadyFrom);
            if (steady.size() < 2) {
                steady = s;
            }
            if (steady.size() < 2) {
                continue;
            }
            long dt = steady.getLast().timestampMicros() - steady.getFirst().timestampMicros();
            if (dt <= 0) {
                continue;
            }
            double increase = 0;
            for (int i = 1; i < steady.size(); i++) {
                double a = steady.get(i - 1).value();
                double b = steady.get(i).value();
                increase += b >= a ? b - a : b;
            }
            total += increase * 1e6 / dt;
            any = true;
        }
        return any ? total : null;
    }

    /** WINDOW summaries: the median over steady windows of each quantile; CUMULATIVE: the last one's. */
    private static Map<String, Double> summaryQuantiles(List<BufferedSample> samples, long steadyFrom) {
        List<BufferedSample> steady = samples.stream().filter(s -> s.timestampMicros() >= steadyFrom).toList();
        if (steady.isEmpty()) {
            steady = samples;
        }
        Map<String, List<Double>> byQuantile = new TreeMap<>();
        BufferedSample lastCumulative = null;
        for (BufferedSample s : steady) {
            if (s.summaryWindow() == SummaryWindow.CUMULATIVE) {
                lastCumulative = s;
            } else {
                s.summaryQuantiles().forEach((q, v) -> byQuantile.computeIfAbsent(q, k -> new ArrayList<>()).add(v));
            }
        }
        Map<String, Double> out = new LinkedHashMap<>();
        byQuantile.forEach((q, v) -> out.put(q, Distribution.median(v.stream().mapToDouble(Double::doubleValue)
                .toArray())));
        if (lastCumulative != null) {
            lastCumulative.summaryQuantiles().forEach(out::putIfAbsent);
        }
        return out;
    }
}
