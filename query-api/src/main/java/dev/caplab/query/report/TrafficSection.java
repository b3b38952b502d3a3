package dev.caplab.query.report;

import dev.caplab.schema.event.RunThroughputLimit;
import dev.caplab.query.throughput.RunThroughput;
import dev.caplab.query.throughput.SloLine;
import dev.caplab.query.throughput.ThroughputStep;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Throughput, error rate, mean latency and latency percentiles per step drawn against load, the throughput limit with its interval,
 * the latency SLO thresholds and the generator warning: the run's {@link RunThroughput}, as the page and the API
 * show it.
 */
final class TrafficSection {

    private TrafficSection() {
    }

    static String render(RunReport report, ChartRanges ranges) {
        StringBuilder html = new StringBuilder("<h3>Throughput and latency against load</h3>");
        RunThroughput throughput = report.throughput();
        List<ThroughputStep> measured = measured(throughput);
        if (measured.isEmpty()) {
            return html.append("<p class=\"none\">No request or latency metrics in this run's steps.</p>").toString();
        }
        RunThroughputLimit limit = throughput.throughputLimit() == null ? null : throughput.throughputLimit().limit();
        if (limit == null) {
            html.append("<p class=\"throughput-limit none\">No throughput limit: the request rate did not stop growing"
                    + " with load (or too few steps to tell).</p>");
        } else {
            html.append("<p class=\"throughput-limit\">Throughput limit at <b class=\"limit-x\">")
                    .append(Html.text(throughput.loadExpression())).append('=').append(Html.num(limit.getKneeX()))
                    .append("</b> (95 % <span class=\"limit-interval\">").append(Html.num(limit.getKneeLower95()))
                    .append(" – ").append(Html.num(limit.getKneeUpper95())).append("</span>), plateau <span class=\"")
                    .append("limit-rate\">").append(Html.num(limit.getPlateauRatePerSecond()))
                    .append("</span> requests/s.</p>");
        }
        for (String warning : throughput.warnings()) {
            html.append("<p class=\"warning throughput-warning\">").append(Html.text(warning)).append("</p>");
        }
        html.append("<table class=\"traffic\"><thead><tr><th>step</th><th>x</th><th>requests/s</th><th>errors</th>"
                + "<th>mean ms</th><th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>mean from</th>"
                + "<th>percentiles from</th></tr></thead><tbody>");
        for (ThroughputStep t : measured) {
            html.append("<tr class=\"traffic-step\" data-step=\"").append(t.stepIndex()).append("\"><td>")
                    .append(t.stepIndex()).append("</td><td>").append(Html.num(t.x())).append("</td><td class=\"rps\">")
                    .append(Html.num(t.requestsPerSecond())).append("</td><td>").append(Html.percent(t.errorRatio()))
                    .append("</td><td class=\"mean\">").append(Html.num(t.latencyMeanMs()))
                    .append("</td><td>").append(Html.num(t.latencyP50Ms())).append("</td><td class=\"p95\">")
                    .append(Html.num(t.latencyP95Ms())).append("</td><td>").append(Html.num(t.latencyP99Ms()))
                    .append("</td><td class=\"mean-from\">")
                    .append(t.latencyMeanFrom() == null ? "" : Html.text(t.latencyMeanFrom()))
                    .append("</td><td class=\"latency-combination\">")
                    .append(t.latencyCombination() == null ? "" : Html.text(t.latencyCombination()))
                    .append("</td></tr>");
        }
        html.append("</tbody></table>");
        List<ThroughputStep> drawable = measured.stream().filter(t -> t.x() != null).toList();
        if (drawable.isEmpty()) {
            return html.toString();
        }
        String expression = report.run().loadExpression();
        String xLabel = expression == null ? "x" : expression;
        html.append("<div class=\"charts\">");
        ChartRanges.Axes rateAxes = ranges.axes(expression, ChartRanges.THROUGHPUT);
        SvgChart rate = new SvgChart(ChartRanges.THROUGHPUT, "requests per second against load", xLabel,
                "requests/s", rateAxes.x(), rateAxes.y())
                .series("rps", "requests/s", points(drawable, ThroughputStep::requestsPerSecond, "requests/s"), true);
        if (limit != null) {
            rate.vertical("throughput-limit", "throughput limit " + Html.num(limit.getKneeX()), limit.getKneeX(),
                    limit.getKneeLower95(), limit.getKneeUpper95());
        }
        html.append(rate.svg());
        ChartRanges.Axes latencyAxes = ranges.axes(expression, ChartRanges.LATENCY);
        SvgChart latency = new SvgChart(ChartRanges.LATENCY, "latency against load", xLabel, "ms",
                latencyAxes.x(), latencyAxes.y());
        // a tool that wrote percentiles since start only gives a mean and no percentile: no empty legend entries
        Map<String, Function<ThroughputStep, Double>> lines = new LinkedHashMap<>();
        lines.put("mean", ThroughputStep::latencyMeanMs);
        lines.put("p50", ThroughputStep::latencyP50Ms);
        lines.put("p95", ThroughputStep::latencyP95Ms);
        lines.put("p99", ThroughputStep::latencyP99Ms);
        lines.forEach((name, value) -> {
            List<SvgChart.Point> points = points(drawable, value, name + " ms");
            if (!points.isEmpty()) {
                latency.series(name.equals("mean") ? "mean-latency" : name, name, points, true);
            }
        });
        for (SloLine slo : latencySlos(throughput)) {
            latency.horizontal("slo", "SLO " + slo.condition(), slo.threshold());
        }
        return html.append(latency.svg()).append("</div>").toString();
    }

    /** Steps with any throughput or latency figure. */
    static List<ThroughputStep> measured(RunThroughput throughput) {
        return throughput.steps().stream().filter(t -> t.requestsPerSecond() != null || t.errorRatio() != null
                || t.latencyMeanMs() != null || t.latencyP50Ms() != null || t.latencyP95Ms() != null || t.latencyP99Ms() != null).toList();
    }

    /** The run's latency SLO thresholds, drawn on the latency chart. */
    static List<SloLine> latencySlos(RunThroughput throughput) {
        return throughput.sloLines().stream().filter(l -> "latency".equals(l.axis())).toList();
    }

    private static List<SvgChart.Point> points(List<ThroughputStep> steps, Function<ThroughputStep, Double> value,
                                               String what) {
        return steps.stream().filter(t -> value.apply(t) != null && Double.isFinite(value.apply(t)))
                .map(t -> new SvgChart.Point(t.x(), value.apply(t), "", "step " + t.stepIndex() + ": x "
                        + Html.num(t.x()) + ", " + Html.num(value.apply(t)) + " " + what))
                .toList();
    }
}
