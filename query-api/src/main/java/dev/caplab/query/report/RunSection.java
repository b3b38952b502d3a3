package dev.caplab.query.report;

import dev.caplab.query.runs.ConclusionView;
import dev.caplab.analysis.conclusion.StepStatus;
import dev.caplab.query.format.Figures;
import dev.caplab.query.runs.RunDetail;
import dev.caplab.store.row.RunRow;
import dev.caplab.query.steps.StepView;
import dev.caplab.store.row.RunStep;
import dev.caplab.schema.vocabulary.Unstated;
import dev.caplab.schema.event.Alert;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/** One run's column of the report: environment, outcome, steps and verdicts, then fits, traffic, plan, warnings. */
final class RunSection {

    private RunSection() {
    }

    /** One run's section; {@code named} heads it with the run id, to tell columns of several runs apart. */
    static String render(RunReport report, ChartRanges ranges, boolean named) {
        RunDetail d = report.detail();
        RunRow run = d.run().run();
        StringBuilder html = new StringBuilder();
        html.append("<section class=\"run\" data-run=\"").append(Html.text(run.runId())).append("\">");
        if (named) {
            html.append("<h2><span class=\"run-id\">").append(Html.text(run.runId())).append("</span></h2>");
        }
        html.append("<p class=\"verdict\">").append(Html.text(Verdict.sentence(report))).append("</p>");
        html.append("<p class=\"subtitle\"><span class=\"sut\">").append(Html.text(Objects.requireNonNullElse(Unstated.orNull(run.sutName()), "system not declared"))).append("</span>")
                .append(run.sutVersion() == null ? "" : " " + Html.text(run.sutVersion()))
                .append(named ? "" : " · run <span class=\"run-id\">" + Html.text(run.runId()) + "</span>")
                .append(" · <span class=\"status\">").append(Html.text(run.status())).append("</span></p>");
        environment(html, d);
        outcome(html, d);
        conclusionWarnings(html, d);
        steps(html, d);
        html.append(FitSection.render(report, ranges));
        html.append(TrafficSection.render(report, ranges));
        html.append(EndpointSection.render(report.endpoints()));
        html.append(PlanSection.render(report));
        warnings(html, d);
        return html.append("</section>").toString();
    }

    private static void environment(StringBuilder html, RunDetail d) {
        RunRow run = d.run().run();
        html.append("<h3>Environment</h3><table class=\"environment kv\">");
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("system under test", Unstated.orNull(run.sutName()));
        facts.put("version", run.sutVersion());
        facts.put("provider", Unstated.orNull(run.provider()));
        facts.put("region", run.region());
        facts.put("instance type", run.instanceType());
        facts.put("tier", run.tier());
        facts.put("vCPU", run.vcpu() == null ? null : Html.num(run.vcpu()));
        facts.put("memory", run.memoryBytes() == null ? null : Figures.bytes(run.memoryBytes().doubleValue()));
        facts.put("egress ceiling", d.egressCeiling() == null ? null
                : Figures.mbps(d.egressCeiling().ceiling().getMbps()) + " (" + d.egressCeiling().text() + ")");
        facts.put("tool", Unstated.orNull(run.tool()));
        facts.put("load expression", run.loadExpression());
        facts.put("started", run.startedAt() == null ? null : Figures.time(run.startedAt()));
        facts.put("ended", run.endedAt() == null ? "not yet: the run is still running" : Figures.time(run.endedAt()));
        // the page's words for the same fact: who said the run started
        facts.put("origin", "INFERRED".equals(run.origin()) ? "inferred from its samples (no run start)" : "declared");
        // a row of dashes per fact the run did not declare hides the ones it did: name them once instead
        List<String> unstated = new ArrayList<>();
        facts.forEach((key, value) -> {
            if (value == null || "".equals(value)) {
                unstated.add(key);
            } else {
                row(html, key, value);
            }
        });
        if (!unstated.isEmpty()) {
            html.append("<tr><th>not declared</th><td class=\"unstated\">").append(Html.text(String.join(", ", unstated)))
                    .append(" (given at the run's start: caplab run start or the tool's run options)</td></tr>");
        }
        if (d.continuation() != null) {
            html.append("<tr><th>continuation</th><td class=\"continuation\">")
                    .append(Html.text(d.continuation().text())).append("</td></tr>");
        }
        if (!run.labels().isEmpty()) {
            row(html, "labels", run.labels().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", ")));
        }
        html.append("</table>");
    }

    private static void outcome(StringBuilder html, RunDetail d) {
        html.append("<h3>Outcome</h3><table class=\"outcome kv\">");
        String note = d.maxStableNote();
        row(html, "max stable load", d.maxStableX() == null ? (note != null ? note : "none: no step passed")
                : Html.num(d.maxStableX()) + " (step " + d.maxStableStepIndex() + ")" + (note == null ? "" : "; " + note));
        row(html, "first failing load", d.failedX() == null ? "none failed"
                : Html.num(d.failedX()) + " (step " + d.failedStepIndex() + ")");
        row(html, "bottleneck", d.bottleneckName() == null ? "none named" : d.bottleneckName()
                + ", because " + Figures.rule(d.conclusion().stored().getBottleneck().getRule().name()));
        html.append("</table>");
    }

    private static void steps(StringBuilder html, RunDetail d) {
        html.append("<h3>Steps and verdicts</h3><table class=\"steps\"><thead><tr><th>step</th><th>load</th><th>x</th>"
                + "<th>verdict</th><th>broken rules</th>"
                + "<th title=\"the resource at or past its planning margin in this step\">over margin</th>"
                + "<th>late samples</th></tr></thead><tbody>");
        for (StepView view : d.steps()) {
            RunStep s = view.step();
            String verdict = verdict(s);
            html.append("<tr class=\"step ").append(verdict).append(s.amended() ? " amended" : "")
                    .append("\" data-step=\"").append(s.stepIndex()).append("\"><td>").append(s.stepIndex())
                    .append("</td><td>").append(Html.text(s.load().entrySet().stream()
                            .sorted(Map.Entry.comparingByKey())
                            .map(e -> e.getKey() + "=" + Html.num(e.getValue())).collect(Collectors.joining(", "))))
                    .append("</td><td class=\"x\">").append(Html.num(s.x())).append("</td><td class=\"verdict\">")
                    .append(verdict).append(s.contaminated() ? " (" + Html.text(s.contaminationReason()) + ")" : "")
                    .append("</td><td>").append(Html.text(view.failedRules())).append("</td><td>")
                    .append(Html.text(s.bottleneck())).append("</td><td>")
                    .append(s.amended() ? "amended (" + s.lateSamples() + ")" : "0").append("</td></tr>");
        }
        html.append("</tbody></table>");
        if (overMarginNamesAnother(d)) {
            html.append("<p class=\"note over-margin-vs-bottleneck\">")
                    .append(Html.text(Figures.overMarginVersusBottleneck())).append("</p>");
        }
    }

    /** Whether some step's "over margin" resource is not the run's bottleneck (metric@source). */
    private static boolean overMarginNamesAnother(RunDetail d) {
        String bottleneck = d.conclusion() == null ? null : ConclusionView.bottleneckName(d.conclusion().stored());
        return d.steps().stream().map(StepView::step).anyMatch(s -> s.bottleneck() != null && !s.bottleneck().isBlank()
                && !s.bottleneck().equals(bottleneck));
    }

    /** What a step's verdict column says: contaminated steps say nothing about the system, so they are not pass/fail. */
    static String verdict(RunStep s) {
        return verdict(s.contaminated(), s.judged(), s.passed());
    }

    /** The step's status word ({@link StepStatus#of}): contaminated, not judged, pending, pass or fail. */
    static String verdict(boolean contaminated, boolean judged, Boolean passed) {
        return StepStatus.of(contaminated, judged, passed).word();
    }

    /** What the conclusion says its reader must know first (no load metric, samples after the end). */
    private static void conclusionWarnings(StringBuilder html, RunDetail d) {
        if (d.conclusion() != null && !d.conclusion().stored().getWarnings().isEmpty()) {
            html.append("<h3>Warnings</h3>");
            d.conclusion().stored().getWarnings().forEach(w -> html.append("<p class=\"warning conclusion-warning\">")
                    .append(Html.text(w.getMessage())).append("</p>"));
        }
    }

    private static void warnings(StringBuilder html, RunDetail d) {
        html.append("<h3>Alerts and lateness</h3><table class=\"lateness kv\">");
        row(html, "late samples (amended steps)", String.valueOf(d.lateness().getLateSamples()));
        row(html, "beyond allowed lateness (in no aggregate)", String.valueOf(d.lateness().getBeyondLatenessSamples()));
        html.append("</table>");
        if (d.alerts().isEmpty()) {
            html.append("<p class=\"none\">No alerts.</p>");
            return;
        }
        html.append("<table class=\"alerts\"><thead><tr><th>at</th><th>kind</th><th>step</th><th>message</th></tr>"
                + "</thead><tbody>");
        for (Alert a : d.alerts()) {
            html.append("<tr class=\"alert\"><td>").append(Html.text(Figures.time(a.getAt()))).append("</td><td>")
                    .append(Html.text(Figures.alertKind(a.getKind().name()))).append("</td><td>").append(Html.text(a.getStepIndex())).append("</td><td>")
                    .append(Html.text(a.getMessage())).append("</td></tr>");
        }
        html.append("</tbody></table>");
    }

    /** A key-value row; {@code value} is escaped here. */
    static void row(StringBuilder html, String key, Object value) {
        html.append("<tr><th>").append(Html.text(key)).append("</th><td>")
                .append(value == null || "".equals(value) ? "–" : Html.text(value)).append("</td></tr>");
    }
}
