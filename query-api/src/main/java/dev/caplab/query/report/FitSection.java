package dev.caplab.query.report;

import dev.caplab.query.format.Figures;
import dev.caplab.store.row.CapacityFitRow;
import dev.caplab.store.row.SegmentValue;
import java.util.List;

/** Every fit with its knee and 95 % interval, and each fitted resource's use per step against its ceiling. */
final class FitSection {

    private FitSection() {
    }

    static String render(RunReport report, ChartRanges ranges) {
        StringBuilder html = new StringBuilder("<h3>Fits</h3>");
        if (report.resources().isEmpty()) {
            return html.append("<p class=\"none\">").append(report.detail().conclusion() == null
                    ? "No fits yet: no step has closed." : report.noResourceRead()
                    ? "No fits: no resource was measured in any step (the capacity plan below says what to send)."
                    : "No fits: a fit needs readings of one resource in 3 steps.").append("</p>").toString();
        }
        Double tested = report.detail().testedToX();
        html.append("<table class=\"fits\"><thead><tr><th>resource</th><th>model</th><th>base</th><th>slope per x</th>"
                + "<th>knee x</th><th>knee 95 % interval</th><th>break p-value</th><th>R²</th><th>cliff</th>"
                + "<th>ceiling</th><th>safe x at margin</th><th>binds first</th></tr></thead><tbody>");
        for (FittedResource use : report.resources()) {
            CapacityFitRow f = use.fit();
            html.append("<tr class=\"fit\" data-metric=\"").append(Html.text(f.metric())).append("\"><td>")
                    .append(Html.text(f.metric())).append(" <small>").append(Html.text(f.source()))
                    .append(f.role() == null ? "" : " <span class=\"role\">(" + Html.text(f.role()) + ")</span>")
                    .append("</small></td><td>").append(Html.text(f.model())).append("</td><td>")
                    .append(Figures.quantity(f.metric(), f.baseline())).append("</td><td>")
                    .append(Figures.quantity(f.metric(), f.slopePerX()))
                    .append("</td><td class=\"knee\">").append(f.kneeX() == null ? "none within the tested range"
                            : Html.num(f.kneeX())).append("</td><td class=\"knee-interval\">")
                    .append(f.kneeX() == null ? "–" : Html.num(f.kneeLower95()) + " – " + Html.num(f.kneeUpper95()))
                    .append("</td><td>").append(Html.text(Figures.pValue(f.breakpointPValue()))).append("</td><td>")
                    .append(Html.num(f.rSquared())).append("</td><td>")
                    .append(f.cliff() ? "cliff at step " + f.cliffStepIndex() : "no").append("</td><td>")
                    .append(Figures.quantity(f.metric(), f.capacity())).append("</td><td class=\"safe-x\">")
                    .append(Html.text(Figures.safeX(f.safeCapacityX(), tested))).append(" <small>(at ")
                    .append(Html.percent(f.margin()))
                    .append(" of the ceiling)</small></td><td>")
                    .append(f.bottleneck() ? "yes" : "no").append("</td></tr>");
        }
        html.append("</tbody></table>");
        if (report.resources().stream().anyMatch(r -> Figures.beyondTested(r.fit().safeCapacityX(), tested))) {
            html.append("<p class=\"note beyond-tested-note\">").append(Html.text(Figures.beyondTestedNote()))
                    .append("</p>");
        }
        html.append("<p class=\"note capacity-vs-fit\">").append(Html.text(Figures.capacityVersusFit()))
                .append("</p><div class=\"charts\">");
        for (FittedResource use : report.resources()) {
            html.append(chart(use, report.run().loadExpression(), ranges));
        }
        return html.append("</div>").toString();
    }

    private static String chart(FittedResource use, String loadExpression, ChartRanges ranges) {
        CapacityFitRow f = use.fit();
        ChartRanges.Axes axes = ranges.axes(loadExpression, ChartRanges.resourceKey(f));
        SvgChart chart = new SvgChart(ChartRanges.resourceKey(f), f.metric() + " (" + f.source() + ") against load",
                loadExpression == null ? "x" : loadExpression, f.metric(), axes.x(), axes.y());
        List<SvgChart.Point> points = use.points().stream().map(p -> new SvgChart.Point(p.x(), p.sustained(),
                p.verdict(),
                "step " + p.stepIndex() + ": x " + Html.num(p.x()) + ", sustained "
                        + Figures.quantity(f.metric(), p.sustained())))
                .toList();
        chart.yTicks(v -> Figures.quantity(f.metric(), v), Figures.binary(f.metric()))
                .series("use", "sustained per step", points, false);
        for (SegmentValue s : f.segments()) {
            chart.segment("fitline", s.fromX(), s.intercept() + s.slope() * s.fromX(), s.toX(),
                    s.intercept() + s.slope() * s.toX());
        }
        if (f.kneeX() != null) {
            chart.vertical("knee", "knee " + Html.num(f.kneeX()), f.kneeX(), f.kneeLower95(), f.kneeUpper95());
        }
        if (f.capacity() != null) {
            chart.horizontal("ceiling", "ceiling " + Figures.quantity(f.metric(), f.capacity()), f.capacity());
            chart.horizontal("margin", "margin " + Html.percent(f.margin()), f.capacity() * f.margin());
        }
        return chart.svg();
    }
}
