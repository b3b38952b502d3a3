package dev.caplab.query.endpoints;

import dev.caplab.analysis.throughput.CounterIncrease;
import dev.caplab.analysis.throughput.TrafficMetrics;
import dev.caplab.analysis.throughput.WindowPercentiles;
import dev.caplab.schema.vocabulary.LabelNames;
import dev.caplab.schema.vocabulary.MetricNames;
import dev.caplab.schema.vocabulary.Statistics;
import dev.caplab.store.row.RequestGroupRow;
import dev.caplab.store.row.TrafficPointRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per-endpoint figures over one time range (a step's steady part, or the whole run) from what the tools sent, a pure
 * function of the run's traffic points and per-request groups. An endpoint is (name, method, status) of a tool's
 * per-endpoint rows ({@link TrafficMetrics#endpointRow}); where several kinds of data describe it, the most direct
 * wins:
 * <ul>
 *   <li>requests: one sample per request (counted, exact percentiles), else the tool's request counters (their
 *       {@link CounterIncrease increase}; over the whole run, the tool's own totals since start when it wrote them),
 *       else the counts of its window summaries (JMeter's listener);</li>
 *   <li>percentiles: exact over the requests, else over the whole run the tool's own since-start percentiles, else
 *       the {@link WindowPercentiles median of its window percentiles} — the way a step's total row is read.</li>
 * </ul>
 */
final class EndpointBreakdown {

    /** The quantiles asked of per-request samples, in the order of {@link RequestGroupRow#quantiles()}. */
    static final List<Double> QUANTILES = List.of(0.5, 0.95, 0.99);

    /** A request name, method and status: the key of a row. */
    record Key(String name, String method, String status) {

        static final Comparator<Key> ORDER = Comparator.comparing(Key::name).thenComparing(Key::method)
                .thenComparing(Key::status);

        static Key of(Map<String, String> labels) {
            String name = labels.getOrDefault(LabelNames.NAME, "");
            return new Key(TrafficMetrics.JMETER_TOTAL_NAMES.contains(name) ? "" : name,
                    labels.getOrDefault(LabelNames.METHOD, ""),
                    TrafficMetrics.firstLabel(labels, TrafficMetrics.STATUS_LABELS));
        }
    }

    /** Per-request groups of one range: by endpoint, and failures by endpoint and message. */
    record RequestGroups(List<RequestGroupRow> endpoints, List<RequestGroupRow> failures) {
    }

    private final Map<String, List<TrafficPointRow>> series = new LinkedHashMap<>();

    EndpointBreakdown(List<TrafficPointRow> points) {
        for (TrafficPointRow p : points) {
            series.computeIfAbsent(p.seriesId(), k -> new ArrayList<>()).add(p);
        }
    }

    /**
     * The endpoints over {@code [fromMicros, toMicros)}; {@code wholeRun} reads the tool's since-start totals and
     * counters from zero, a step their increase inside it. Requests counted one by one (or by send window) make a
     * rate over the range's length, for a whole run or an open step over the first to the last request seen.
     */
    List<EndpointView> endpoints(long fromMicros, long toMicros, boolean wholeRun, RequestGroups groups) {
        Map<Key, Tally> tallies = new TreeMap<>(Key.ORDER);
        for (RequestGroupRow g : groups.endpoints()) {
            Tally t = tallies.computeIfAbsent(new Key(g.key().get(0), g.key().get(1), g.key().get(2)), k -> new Tally());
            t.perRequest += g.requests();
            t.perRequestFailed += g.failed();
            t.quantiles = g.quantiles();
            t.first = Math.min(t.first, g.firstMicros());
            t.last = Math.max(t.last, g.lastMicros());
        }
        for (List<TrafficPointRow> s : series.values()) {
            TrafficPointRow head = s.getFirst();
            if (!TrafficMetrics.endpointRow(head.labels())) {
                continue;
            }
            Tally t = tallies.computeIfAbsent(Key.of(head.labels()), k -> new Tally());
            List<TrafficPointRow> in = s.stream().filter(p -> p.micros() >= fromMicros && p.micros() < toMicros)
                    .toList();
            boolean cumulative = TrafficMetrics.CUMULATIVE.equals(head.labels().get(LabelNames.WINDOW));
            String metric = head.metric();
            if ("SUMMARY".equals(head.kind()) && metric.equals(MetricNames.HTTP_DURATION_MS)) {
                for (TrafficPointRow p : in) {
                    if ("WINDOW".equals(p.summaryWindow())) {
                        t.windowCount += p.summaryCount() == null ? 0 : p.summaryCount();
                        if (!p.summaryQuantiles().isEmpty()) {
                            t.windows.add(p.summaryQuantiles());
                        }
                        t.first = Math.min(t.first, p.micros());
                        t.last = Math.max(t.last, p.micros());
                    } else if ("CUMULATIVE".equals(p.summaryWindow()) && wholeRun && (p.micros() > t.toolQuantilesAt
                            || p.micros() == t.toolQuantilesAt
                            && p.summaryQuantiles().size() > t.toolQuantiles.size())) {
                        // the latest; at one instant the fullest (Locust's final _stats.csv row beside the history's
                        // last row, which carries only its median)
                        t.toolQuantiles = p.summaryQuantiles();
                        t.toolQuantilesAt = p.micros();
                    }
                }
            } else if ("COUNTER".equals(head.kind()) && in.size() > 0) {
                counter(t, metric, head.labels(), wholeRun ? in : withReadingBefore(s, fromMicros, in), cumulative,
                        wholeRun);
            } else if (cumulative && wholeRun && metric.equals(MetricNames.HTTP_REQS_PER_S) && !in.isEmpty()) {
                t.toolRate += in.getLast().value();
                t.anyToolRate = true;
            } else if (metric.equals(MetricNames.HTTP_FAILED_WINDOW_COUNT)) {
                in.forEach(p -> t.windowFailed += p.value());
            }
        }
        List<EndpointView> out = new ArrayList<>();
        tallies.forEach((k, t) -> t.view(k, fromMicros, toMicros, wholeRun).ifPresent(out::add));
        return out;
    }

    private static void counter(Tally t, String metric, Map<String, String> labels, List<TrafficPointRow> in,
            boolean cumulative, boolean wholeRun) {
        double[] values = in.stream().mapToDouble(TrafficPointRow::value).toArray();
        boolean requests = TrafficMetrics.REQUEST_COUNTERS.contains(metric);
        boolean failures = TrafficMetrics.FAILURE_COUNTERS.contains(metric)
                || requests && TrafficMetrics.failed(labels);
        if (cumulative) {
            if (wholeRun) {
                double total = CounterIncrease.total(values);
                t.toolRequests += requests ? total : 0;
                t.toolFailed += failures ? total : 0;
                t.anyToolTotal |= requests;
            }
            return;
        }
        double counted = wholeRun ? CounterIncrease.total(values) : CounterIncrease.increase(values);
        if (requests) {
            Double rate = CounterIncrease.perSecond(in.stream().mapToLong(TrafficPointRow::micros).toArray(), values);
            if (rate == null) {
                return;
            }
            t.counted += counted;
            t.countedRate += rate;
            t.anyCounter = true;
        }
        if (failures) {
            t.countedFailed += counted;
        }
    }

    /**
     * A step's counter readings with the series' last reading before the step in front: a reading reports what was
     * counted since the one before it, so a step's increase runs from that reading (the rule of streams'
     * StepStatistics, whose step rates these endpoint rates add up to).
     */
    private static List<TrafficPointRow> withReadingBefore(List<TrafficPointRow> series, long fromMicros,
            List<TrafficPointRow> in) {
        TrafficPointRow before = null;
        for (TrafficPointRow p : series) {
            if (p.micros() < fromMicros && (before == null || p.micros() > before.micros())) {
                before = p;
            }
        }
        if (before == null) {
            return in;
        }
        List<TrafficPointRow> out = new ArrayList<>(in.size() + 1);
        out.add(before);
        out.addAll(in.stream().sorted(Comparator.comparingLong(TrafficPointRow::micros)).toList());
        return out;
    }

    /** Failures by endpoint, status and message over {@code [fromMicros, toMicros)}, most frequent first. */
    List<ErrorView> errors(long fromMicros, long toMicros, boolean wholeRun, List<RequestGroupRow> failedRequests) {
        Map<List<String>, Double> byKey = new LinkedHashMap<>();
        for (RequestGroupRow g : failedRequests) {
            byKey.merge(g.key(), (double) g.requests(), Double::sum);
        }
        for (List<TrafficPointRow> s : series.values()) {
            TrafficPointRow head = s.getFirst();
            Map<String, String> labels = head.labels();
            String message = TrafficMetrics.firstLabel(labels, TrafficMetrics.ERROR_MESSAGE_LABELS);
            Key k = Key.of(labels);
            List<String> key = List.of(k.name(), k.method(), k.status(), message);
            List<TrafficPointRow> in = s.stream().filter(p -> p.micros() >= fromMicros && p.micros() < toMicros)
                    .toList();
            if (in.isEmpty()) {
                continue;
            }
            boolean counter = TrafficMetrics.ERROR_COUNTERS.contains(head.metric()) && "COUNTER".equals(head.kind());
            double[] values = (counter && !wholeRun ? withReadingBefore(s, fromMicros, in) : in).stream()
                    .mapToDouble(TrafficPointRow::value).toArray();
            if (counter) {
                if (wholeRun || values.length >= 2) {
                    byKey.merge(key, wholeRun ? CounterIncrease.total(values) : CounterIncrease.increase(values),
                            Double::sum);
                }
            } else if (TrafficMetrics.ERROR_WINDOW_COUNTS.contains(head.metric()) && !k.status().isEmpty()) {
                double sum = 0;
                for (double v : values) {
                    sum += v;
                }
                byKey.merge(key, sum, Double::sum);
            }
        }
        List<ErrorView> out = new ArrayList<>();
        byKey.forEach((k, n) -> {
            if (n > 0) {
                out.add(new ErrorView(k.get(0), k.get(1), k.get(2), k.get(3), Math.round(n)));
            }
        });
        out.sort(Comparator.comparingLong(ErrorView::occurrences).reversed().thenComparing(ErrorView::name)
                .thenComparing(ErrorView::message));
        return out;
    }

    /** What one endpoint's data adds up to over a range. */
    private static final class Tally {
        long perRequest;
        long perRequestFailed;
        List<Double> quantiles = List.of();
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        double counted;
        double countedRate;
        double countedFailed;
        boolean anyCounter;
        double toolRequests;
        double toolFailed;
        boolean anyToolTotal;
        double toolRate;
        boolean anyToolRate;
        long windowCount;
        double windowFailed;
        List<Map<String, Double>> windows = new ArrayList<>();
        Map<String, Double> toolQuantiles = Map.of();
        long toolQuantilesAt = Long.MIN_VALUE;

        java.util.Optional<EndpointView> view(Key k, long from, long to, boolean wholeRun) {
            Long requests;
            Double rate;
            double failed;
            String counts;
            if (perRequest > 0) {
                requests = perRequest;
                failed = perRequestFailed;
                rate = perSecond(perRequest, from, to, wholeRun);
                counts = "requests counted one by one";
            } else if (wholeRun && anyToolTotal) {
                requests = Math.round(toolRequests);
                failed = toolFailed;
                rate = anyToolRate ? toolRate : null;
                counts = "the tool's own totals since start";
            } else if (anyCounter) {
                requests = Math.round(counted);
                failed = countedFailed;
                rate = countedRate;
                counts = wholeRun ? "the tool's counters since start" : "the tool's counter increase over the step";
            } else if (windowCount > 0) {
                requests = windowCount;
                failed = windowFailed;
                rate = perSecond(windowCount, from, to, wholeRun);
                counts = "the counts of the tool's send windows";
            } else {
                return java.util.Optional.empty();
            }
            Map<String, Double> q;
            String percentiles;
            if (perRequest > 0 && quantiles.size() == QUANTILES.size()) {
                q = Map.of(Statistics.Q50, quantiles.get(0), Statistics.Q95, quantiles.get(1), Statistics.Q99,
                        quantiles.get(2));
                percentiles = "exact percentiles of those requests";
            } else if (!toolQuantiles.isEmpty()) {
                q = toolQuantiles;
                percentiles = "the tool's own since-start percentiles";
            } else if (!windows.isEmpty()) {
                q = WindowPercentiles.combine(windows);
                percentiles = String.format(Locale.ROOT, "median of the tool's %d window percentiles",
                        windows.size());
            } else {
                q = Map.of();
                percentiles = "no percentiles from the tool";
            }
            return java.util.Optional.of(new EndpointView(k.name(), k.method(), k.status(), requests, rate,
                    Math.round(failed), requests > 0 ? failed / requests : null, q.get(Statistics.Q50),
                    q.get(Statistics.Q95), q.get(Statistics.Q99), counts + "; " + percentiles));
        }

        /** Requests over the range's seconds (a step's steady part), or over the first to last request (a run). */
        private Double perSecond(long n, long from, long to, boolean wholeRun) {
            long start = wholeRun ? first : from;
            long end = wholeRun || to == Long.MAX_VALUE ? last : to;
            return end > start ? n * 1e6 / (end - start) : null;
        }
    }
}
