package dev.caplab.query.report;

import dev.caplab.query.format.Figures;
import dev.caplab.query.fits.FitView;
import dev.caplab.schema.event.CapacityFit;
import dev.caplab.schema.event.Segment;
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
            FitView view = use.fit();
            CapacityFit f = view.fit();
            html.append("<tr class=\"fit\" data-metric=\"").append(Html.text(f.getMetric())).append("\"><td>")
                    .append(Html.text(f.getMetric())).append(" <small>").append(Html.text(f.getSource()))
                    .append(f.getRole() == null ? "" : " <span class=\"role\">(" + Html.text(f.getRole()) + ")</span>")
                    .append("</small></td><td>").append(Html.text(f.getModel())).append("</td><td>")
                    .append(Figures.quantity(f.getMetric(), view.baseline())).append("</td><td>")
                    .append(Figures.quantity(f.getMetric(), view.slopePerX()))
                    .append("</td><td class=\"knee\">").append(view.kneeX() == null ? "none within the tested range"
                            : Html.num(view.kneeX())).append("</td><td class=\"knee-interval\">")
                    .append(view.kneeX() == null ? "–"
                            : Html.num(view.kneeLower95()) + " – " + Html.num(view.kneeUpper95()))
                    .append("</td><td>").append(Html.text(Figures.pValue(f.getBreakpointPValue()))).append("</td><td>")
                    .append(Html.num(f.getRSquared())).append("</td><td>")
                    .append(f.getCliff() ? "cliff at step " + f.getCliffStepIndex() : "no").append("</td><td>")
                    .append(Figures.quantity(f.getMetric(), f.getCapacity())).append("</td><td class=\"safe-x\">")
                    .append(Html.text(Figures.safeX(f.getSafeCapacityX(), tested))).append(" <small>(at ")
                    .append(Html.percent(f.getMargin()))
                    .append(" of the ceiling)</small></td><td>")
                    .append(f.getBottleneck() ? "yes" : "no").append("</td></tr>");
        }
        html.append("</tbody></table>");
        if (report.resources().stream().anyMatch(r -> Figures.beyondTested(r.fit().fit().getSafeCapacityX(), tested))) {
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
        FitView view = use.fit();
        CapacityFit f = view.fit();
        ChartRanges.Axes axes = ranges.axes(loadExpression, ChartRanges.resourceKey(view));
        SvgChart chart = new SvgChart(ChartRanges.resourceKey(view), f.getMetric() + " (" + f.getSource()
                + ") against load", loadExpression == null ? "x" : loadExpression, f.getMetric(), axes.x(), axes.y());
        List<SvgChart.Point> points = use.points().stream().map(p -> new SvgChart.Point(p.x(), p.sustained(),
                p.verdict(),
                "step " + p.stepIndex() + ": x " + Html.num(p.x()) + ", sustained "
                        + Figures.quantity(f.getMetric(), p.sustained())))
                .toList();
        chart.yTicks(v -> Figures.quantity(f.getMetric(), v), Figures.binary(f.getMetric()))
                .series("use", "sustained per step", points, false);
        for (Segment s : f.getSegments()) {
            chart.segment("fitline", s.getFromX(), s.getIntercept() + s.getSlope() * s.getFromX(), s.getToX(),
                    s.getIntercept() + s.getSlope() * s.getToX());
        }
        if (view.kneeX() != null) {
            chart.vertical("knee", "knee " + Html.num(view.kneeX()), view.kneeX(), view.kneeLower95(),
                    view.kneeUpper95());
        }
        if (f.getCapacity() != null) {
            chart.horizontal("ceiling", "ceiling " + Figures.quantity(f.getMetric(), f.getCapacity()),
                    f.getCapacity());
            chart.horizontal("margin", "margin " + Html.percent(f.getMargin()), f.getCapacity() * f.getMargin());
        }
        return chart.svg();
    }
}
