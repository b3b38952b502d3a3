package dev.caplab.query.report;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/** Throughput, error rate and latency percentiles per step, drawn against load. */
final class TrafficSection {

    private TrafficSection() {
    }

    static String render(RunReport report, ChartRanges ranges) {
        StringBuilder html = new StringBuilder("<h3>Throughput and latency against load</h3>");
        List<StepTraffic> measured = report.traffic().stream().filter(StepTraffic::measured).toList();
        if (measured.isEmpty()) {
            return html.append("<p class=\"none\">No request or latency metrics in this run's steps.</p>").toString();
        }
        html.append("<table class=\"traffic\"><thead><tr><th>step</th><th>x</th><th>requests/s</th><th>errors</th>"
                + "<th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>latency of</th></tr></thead><tbody>");
        for (StepTraffic t : measured) {
            html.append("<tr class=\"traffic-step\" data-step=\"").append(t.stepIndex()).append("\"><td>")
                    .append(t.stepIndex()).append("</td><td>").append(Html.num(t.x())).append("</td><td class=\"rps\">")
                    .append(Html.num(t.requestsPerSecond())).append("</td><td>").append(Html.percent(t.errorRatio()))
                    .append("</td><td>").append(Html.num(t.p50Millis())).append("</td><td class=\"p95\">")
                    .append(Html.num(t.p95Millis())).append("</td><td>").append(Html.num(t.p99Millis()))
                    .append("</td><td>").append(Html.text(t.latencySource())).append("</td></tr>");
        }
        html.append("</tbody></table>");
        List<StepTraffic> drawable = measured.stream().filter(t -> t.x() != null).toList();
        if (drawable.isEmpty()) {
            return html.toString();
        }
        String expression = report.detail().run().loadExpression();
        String xLabel = expression == null ? "x" : expression;
        html.append("<div class=\"charts\">");
        ChartRanges.Axes throughput = ranges.axes(expression, ChartRanges.THROUGHPUT);
        html.append(new SvgChart(ChartRanges.THROUGHPUT, "requests per second against load", xLabel, "requests/s",
                throughput.x(), throughput.y())
                .series("rps", "requests/s", points(drawable, StepTraffic::requestsPerSecond, "requests/s"), true)
                .svg());
        ChartRanges.Axes latency = ranges.axes(expression, ChartRanges.LATENCY);
        html.append(new SvgChart(ChartRanges.LATENCY, "latency percentiles against load", xLabel, "ms",
                latency.x(), latency.y())
                .series("p50", "p50", points(drawable, StepTraffic::p50Millis, "p50 ms"), true)
                .series("p95", "p95", points(drawable, StepTraffic::p95Millis, "p95 ms"), true)
                .series("p99", "p99", points(drawable, StepTraffic::p99Millis, "p99 ms"), true)
                .svg());
        return html.append("</div>").toString();
    }

    private static List<SvgChart.Point> points(List<StepTraffic> steps, Function<StepTraffic, Double> value,
                                               String what) {
        return steps.stream().filter(t -> value.apply(t) != null && Double.isFinite(value.apply(t)))
                .map(t -> new SvgChart.Point(t.x(), value.apply(t), "", "step " + t.stepIndex() + ": x "
                        + Html.num(t.x()) + ", " + Html.num(value.apply(t)) + " " + what))
                .filter(Objects::nonNull).toList();
    }
}
