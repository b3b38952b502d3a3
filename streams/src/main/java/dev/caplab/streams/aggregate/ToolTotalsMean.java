package dev.caplab.streams.aggregate;

import static dev.caplab.schema.vocabulary.MetricNames.THROUGHPUT_SOURCE;

import dev.caplab.schema.event.SampleKind;
import dev.caplab.schema.event.SummaryWindow;
import dev.caplab.schema.vocabulary.MetricNames;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A step's mean request latency from a tool's own since-start totals (CUMULATIVE summaries of {@link
 * MetricNames#HTTP_DURATION_MS} with a count n and a mean m, e.g. Locust's {@code Total Request Count} and {@code Total
 * Average Response Time}): per series, the requests between two readings took m₂·n₂ − m₁·n₁ ms in all, so their mean
 * is exact, whatever the tool's since-start percentiles say. The span is the counters' ({@link StepStatistics}): from
 * the last reading before the steady part (a warm-up reading, or the step's {@link Priors prior}) to the step's last;
 * several series (sources) are pooled, the tool's total row {@link CountedOnce counted once}.
 *
 * <p>Two readings stamped with one time count as the one with the smaller count: Locust's {@code _stats.csv} takes
 * the history's last timestamp though it was counted up to a second later, and a step's mean covers the requests its
 * request rate counts (the history's).
 */
public final class ToolTotalsMean {

    private static final Comparator<Partial.SummaryPoint> READING_ORDER = Comparator
            .comparingLong(Partial.SummaryPoint::timestampMicros).thenComparingLong(Partial.SummaryPoint::count);

    private ToolTotalsMean() {
    }

    /** The step's {@link MetricNames#THROUGHPUT_LATENCY_TOTALS_MEAN_MS}; empty without totals or new requests. */
    static Optional<SeriesStats> of(List<Partial> inStep, Map<String, Partial.SummaryPoint> priors, long steadyFrom) {
        Map<String, List<Partial.SummaryPoint>> bySeries = new TreeMap<>();
        for (Partial p : CountedOnce.select(inStep.stream().filter(p -> p.kind() == SampleKind.SUMMARY
                && p.metric().equals(MetricNames.HTTP_DURATION_MS)).toList())) {
            p.summaries().stream().filter(ToolTotalsMean::isTotals)
                    .forEach(s -> bySeries.computeIfAbsent(p.seriesKey(), k -> new ArrayList<>()).add(s));
        }
        long requests = 0;
        ExactSum totalMs = new ExactSum();
        for (Map.Entry<String, List<Partial.SummaryPoint>> e : bySeries.entrySet()) {
            List<Partial.SummaryPoint> readings = readings(e.getValue());
            Partial.SummaryPoint prior = priors.get(e.getKey());
            if (prior != null && prior.timestampMicros() < readings.getFirst().timestampMicros()) {
                readings.addFirst(prior);
            }
            List<Partial.SummaryPoint> span = StepStatistics.steadySpan(readings,
                    Partial.SummaryPoint::timestampMicros, steadyFrom);
            Partial.SummaryPoint first = span.getFirst();
            Partial.SummaryPoint last = span.getLast();
            if (span.size() < 2 || last.count() <= first.count()) {
                continue; // nothing counted between them, or the tool restarted: no requests to average
            }
            requests += last.count() - first.count();
            totalMs.add(last.mean() * last.count());
            totalMs.add(-first.mean() * first.count());
        }
        if (requests == 0) {
            return Optional.empty();
        }
        double sum = totalMs.value();
        double mean = sum / requests;
        return Optional.of(new SeriesStats(THROUGHPUT_SOURCE, MetricNames.THROUGHPUT_LATENCY_TOTALS_MEAN_MS, SampleKind.GAUGE,
                requests, 0, sum, Double.NaN, Double.NaN, mean, mean, Double.NaN, mean, Map.of(), null, false));
    }

    /** The last totals reading among a partial's summary points, by the rule above; empty when it has none. */
    public static Optional<Partial.SummaryPoint> last(Partial p) {
        List<Partial.SummaryPoint> totals = p.summaries().stream().filter(ToolTotalsMean::isTotals).toList();
        return totals.isEmpty() ? Optional.empty() : Optional.of(readings(totals).getLast());
    }

    private static boolean isTotals(Partial.SummaryPoint s) {
        return s.window() == SummaryWindow.CUMULATIVE && s.hasTotals();
    }

    /** Sorted by time, one per timestamp: the one with the smallest count. */
    private static List<Partial.SummaryPoint> readings(List<Partial.SummaryPoint> points) {
        List<Partial.SummaryPoint> sorted = new ArrayList<>(points);
        sorted.sort(READING_ORDER);
        List<Partial.SummaryPoint> out = new ArrayList<>();
        for (Partial.SummaryPoint s : sorted) {
            if (out.isEmpty() || out.getLast().timestampMicros() != s.timestampMicros()) {
                out.add(s);
            }
        }
        return out;
    }
}
