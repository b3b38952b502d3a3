package dev.caplab.query.report;

import dev.caplab.store.row.RunRow;
import dev.caplab.schema.vocabulary.Unstated;
import java.util.List;
import java.util.function.Function;

/**
 * Renders runs as one self-contained HTML document: styles and SVG charts inline, no script, no font, no image to
 * fetch, and a Content-Security-Policy that forbids any network fetch should the file ever be edited to make one.
 * Several runs become columns side by side, on shared axes where their load expressions match. A pure function of
 * the reports: the same runs give the same bytes, whoever asks (the endpoint, {@code caplab report}).
 */
public final class ReportHtml {

    /** Nothing may be fetched: no default source, inline styles only, no scripts, no base or form targets. */
    public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; "
            + "img-src data:; base-uri 'none'; form-action 'none'";

    private static final String STYLE = """
            body{font:14px/1.4 system-ui,sans-serif;margin:16px;color:#1d2733;background:#fff}
            h1{font-size:20px;margin:0 0 4px}h2{font-size:18px;margin:8px 0 0}h3{font-size:15px;margin:18px 0 6px;
            border-bottom:1px solid #d8dee6}.subtitle{margin:2px 0 8px;color:#4a5a6a}
            .runs{display:grid;grid-auto-flow:column;grid-auto-columns:minmax(0,1fr);gap:24px}
            table{border-collapse:collapse;margin:4px 0;font-size:13px}th,td{padding:2px 8px;text-align:left;
            border-bottom:1px solid #eef1f4;vertical-align:top}thead th{background:#f3f5f8}.kv th{font-weight:normal;
            color:#4a5a6a}tr.fail td{background:#fdecec}tr.contaminated td{background:#fff6dd}tr.amended td:last-child{
            font-weight:bold}.warning{color:#8a5a00}.none{color:#6a7a8a}small{color:#6a7a8a}
            .verdict{font-size:16px;margin:6px 0 12px;max-width:960px}.table-box{max-width:100%;overflow-x:auto}
            .charts{display:flex;flex-wrap:wrap;gap:8px}svg.chart{width:100%;max-width:560px;height:auto;
            border:1px solid #eef1f4}svg text{font-size:11px;fill:#1d2733}svg .title{font-size:13px;font-weight:bold}
            .axis{stroke:#4a5a6a}.grid{stroke:#eef1f4}.point{stroke:#fff;stroke-width:1}.point.pass,.swatch.use{
            fill:#2f6fb3}.point.fail{fill:#c62828}.point.contaminated{fill:#e0a800}.point.pending{fill:#9aa5b1}
            .fitline{stroke:#1d2733;stroke-width:1.5}.marker{stroke-width:1.5;stroke-dasharray:5 3}
            .knee{stroke:#7b1fa2;fill:#7b1fa2}.band.knee{fill:#7b1fa2;fill-opacity:.12;stroke:none}
            .ceiling{stroke:#c62828;fill:#c62828}.margin{stroke:#e08a00;fill:#e08a00}.slo{stroke:#1d2733;fill:#1d2733}polyline.line{fill:none;stroke-width:1.5}
            .rps{fill:#2f6fb3;stroke:#2f6fb3}.p50{fill:#2e7d32;stroke:#2e7d32}.p95{fill:#e08a00;stroke:#e08a00}
            .p99{fill:#c62828;stroke:#c62828}.mean-latency{fill:#5a4a8a;stroke:#5a4a8a}
            circle.p50,circle.p95,circle.p99,circle.rps,circle.mean-latency{stroke:#fff}
            """;

    private ReportHtml() {
    }

    /** A run's heading: its system as the verdict names it, or the run itself when nobody named the system. */
    private static String heading(RunRow run) {
        return Unstated.is(run.sutName()) ? "run " + run.runId() + ", system not declared" : Verdict.system(run);
    }

    /** The document for {@code reports} (at least one). */
    public static String render(List<RunReport> reports) {
        if (reports.isEmpty()) {
            throw new IllegalArgumentException("a report needs at least one run");
        }
        ChartRanges ranges = ChartRanges.of(reports);
        // the run id stands once on the page (a run's subtitle, or its column's head); the window title names it too
        String heading = reports.size() == 1 ? "Capacity report: " + heading(reports.get(0).run())
                : "Capacity report: " + reports.size() + " runs side by side";
        String title = heading + " (" + String.join(", ", reports.stream().map(RunReport::runId).toList()) + ")";
        StringBuilder html = new StringBuilder(64 * 1024);
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"").append(CONTENT_SECURITY_POLICY)
                .append("\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<meta name=\"generator\" content=\"caplab\"><title>").append(Html.text(title))
                .append("</title><style>").append(STYLE).append("</style></head><body>");
        html.append("<h1>").append(Html.text(heading)).append("</h1>");
        if (reports.size() > 1) {
            overview(html, reports);
        }
        html.append("<div class=\"runs\">");
        for (RunReport report : reports) {
            html.append(RunSection.render(report, ranges, reports.size() > 1));
        }
        return html.append("</div></body></html>\n").toString();
    }

    /** One column per run, the figures people compare first. */
    private static void overview(StringBuilder html, List<RunReport> reports) {
        html.append("<h2>Side by side</h2><table class=\"overview\"><thead><tr><th></th>");
        reports.forEach(r -> html.append("<th>").append(Html.text(r.runId())).append("</th>"));
        html.append("</tr></thead><tbody>");
        overviewRow(html, reports, "system under test", r -> Unstated.orNull(r.run().sutName()));
        overviewRow(html, reports, "version", r -> r.run().sutVersion());
        overviewRow(html, reports, "provider", r -> Unstated.orNull(r.run().provider()));
        overviewRow(html, reports, "tier", r -> r.run().tier());
        overviewRow(html, reports, "tool", r -> r.run().tool());
        overviewRow(html, reports, "load expression", r -> r.run().loadExpression());
        overviewRow(html, reports, "max stable load", r -> r.detail().maxStableX() == null
                && r.detail().maxStableNote() != null ? "not judged (no SLO rules)" : Html.num(r.detail().maxStableX()));
        overviewRow(html, reports, "first failing load", r -> Html.num(r.detail().failedX()));
        overviewRow(html, reports, "bottleneck", r -> r.detail().bottleneckName());
        overviewRow(html, reports, "status", r -> r.run().status());
        html.append("</tbody></table>");
        if (reports.stream().map(r -> r.run().loadExpression()).distinct().count() > 1) {
            html.append("<p class=\"warning\">These runs measure load differently (different load expressions): "
                    + "their charts keep separate axes and their x values are not comparable.</p>");
        }
        if (reports.stream().map(r -> r.run().sutName()).distinct().count() > 1) {
            html.append("<p class=\"warning\">These runs test different systems: differences between them are not "
                    + "differences of provider or tier.</p>");
        }
    }

    private static void overviewRow(StringBuilder html, List<RunReport> reports, String name,
                                    Function<RunReport, Object> value) {
        html.append("<tr><th>").append(Html.text(name)).append("</th>");
        for (RunReport r : reports) {
            Object v = value.apply(r);
            html.append("<td>").append(v == null ? "–" : Html.text(v)).append("</td>");
        }
        html.append("</tr>");
    }
}
