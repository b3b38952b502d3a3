package dev.caplab.query.report;

import dev.caplab.query.fits.FitView;
import dev.caplab.query.throughput.ThroughputLimitView;
import dev.caplab.query.throughput.SloLine;
import dev.caplab.query.throughput.ThroughputStep;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.DoubleStream;
import java.util.stream.Stream;

/**
 * The axes of every chart of a report, shared by the runs they compare: runs with the same load expression draw a
 * metric on one x and one y range, so their columns read side by side; runs with different load expressions keep
 * their own (their x are different quantities).
 */
final class ChartRanges {

    static final String THROUGHPUT = "throughput";
    static final String LATENCY = "latency";

    /** One chart's x and y range. */
    record Axes(Range x, Range y) {
        Axes union(Axes other) {
            return new Axes(x.union(other.x), y.union(other.y));
        }
    }

    private final Map<String, Axes> axes = new HashMap<>();

    private ChartRanges() {
    }

    static ChartRanges of(List<RunReport> reports) {
        ChartRanges ranges = new ChartRanges();
        for (RunReport r : reports) {
            String expression = r.run().loadExpression();
            for (FittedResource use : r.resources()) {
                FitView fit = use.fit();
                DoubleStream xs = DoubleStream.concat(use.points().stream().mapToDouble(FittedResource.Point::x),
                        Stream.of(fit.kneeUpper95(), fit.kneeX()).filter(Objects::nonNull).mapToDouble(d -> d));
                DoubleStream ys = DoubleStream.concat(use.points().stream().mapToDouble(FittedResource.Point::sustained),
                        Stream.of(fit.fit().getCapacity()).filter(Objects::nonNull).mapToDouble(d -> d));
                ranges.add(expression, resourceKey(fit), Range.fromZero(xs), Range.fromZero(ys));
            }
            List<ThroughputStep> measured = TrafficSection.measured(r.throughput()).stream()
                    .filter(t -> t.x() != null).toList();
            if (!measured.isEmpty()) {
                ThroughputLimitView limit = r.throughput().throughputLimit();
                Range x = Range.fromZero(measured.stream().mapToDouble(ThroughputStep::x));
                // the limit's interval may reach past the last step: keep its band on the chart
                Range rateX = limit == null ? x : x.union(Range.fromZero(Stream.ofNullable(limit.limit().getKneeUpper95())
                        .mapToDouble(Double::doubleValue)));
                ranges.add(expression, THROUGHPUT, rateX, Range.fromZero(measured.stream()
                        .map(ThroughputStep::requestsPerSecond).filter(Objects::nonNull).mapToDouble(d -> d)));
                ranges.add(expression, LATENCY, x, Range.fromZero(Stream.concat(measured.stream()
                        .flatMap(t -> Stream.of(t.latencyMeanMs(), t.latencyP50Ms(), t.latencyP95Ms(), t.latencyP99Ms())),
                        TrafficSection.latencySlos(r.throughput()).stream().map(SloLine::threshold))
                        .filter(Objects::nonNull).mapToDouble(d -> d)));
            }
        }
        return ranges;
    }

    /** The axes of chart {@code chart} for runs of {@code loadExpression}. */
    Axes axes(String loadExpression, String chart) {
        Axes found = axes.get(key(loadExpression, chart));
        if (found == null) {
            throw new IllegalStateException("no axes for chart " + chart + " of load expression " + loadExpression);
        }
        return found;
    }

    /** Resource charts are shared by metric: sources are named differently on different machines. */
    static String resourceKey(FitView fit) {
        return "resource:" + fit.fit().getMetric();
    }

    private void add(String loadExpression, String chart, Range x, Range y) {
        axes.merge(key(loadExpression, chart), new Axes(x, y), Axes::union);
    }

    private static String key(String loadExpression, String chart) {
        return (loadExpression == null ? "" : loadExpression) + '\u0000' + chart;
    }
}
