package dev.caplab.query.report;

import dev.caplab.query.endpoints.EndpointView;
import dev.caplab.query.endpoints.ErrorView;
import dev.caplab.query.endpoints.RunEndpoints;
import dev.caplab.query.endpoints.StepEndpoints;
import java.util.List;

/**
 * The run's per-endpoint and error tables, whole run then step by step (steady part), as the page and
 * {@code GET /runs/{id}/endpoints} show them: requests, requests/s, failures, error share and p50/p95/p99 in ms per
 * endpoint, with where each figure came from; failures by endpoint, status and message.
 */
final class EndpointSection {

    private EndpointSection() {
    }

    static String render(RunEndpoints endpoints) {
        StringBuilder html = new StringBuilder("<h3>Endpoints</h3>");
        if (endpoints.endpoints().isEmpty() && endpoints.errors().isEmpty()) {
            return html.append("<p class=\"none\">The load tool sent no per-endpoint rows.</p>").toString();
        }
        html.append("<p>Whole run:</p>");
        endpointTable(html, endpoints.endpoints(), "endpoints-run");
        html.append("<h3>Errors</h3>");
        errorTable(html, endpoints.errors(), endpoints.endpoints(), "errors-run");
        for (StepEndpoints step : endpoints.steps()) {
            if (step.endpoints().isEmpty() && step.errors().isEmpty()) {
                continue;
            }
            html.append("<h4>Step ").append(step.stepIndex()).append(" (steady part, warm-up excluded)</h4>");
            endpointTable(html, step.endpoints(), "endpoints-step");
            errorTable(html, step.errors(), step.endpoints(), "errors-step");
        }
        return html.toString();
    }

    /**
     * Tools that report per endpoint without a status (Locust's stats, k6's trend per URL) leave the status column
     * empty on every row: it is left out then, as the page leaves out an empty column, and a note says so.
     */
    private static void endpointTable(StringBuilder html, List<EndpointView> rows, String cssClass) {
        boolean withStatus = rows.stream().anyMatch(e -> e.status() != null && !e.status().isBlank());
        html.append("<table class=\"").append(cssClass).append("\"><thead><tr><th>name</th><th>method</th>")
                .append(withStatus ? "<th>status</th>" : "")
                .append("<th>requests</th><th>requests/s</th><th>failures</th><th>errors</th>"
                        + "<th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>from</th></tr></thead><tbody>");
        for (EndpointView e : rows) {
            html.append("<tr class=\"endpoint\"><td class=\"name\">").append(Html.text(e.name())).append("</td><td>")
                    .append(Html.text(e.method()))
                    .append(withStatus ? "</td><td>" + Html.text(e.status()) : "")
                    .append("</td><td class=\"requests\">").append(count(e.requests()))
                    .append("</td><td class=\"rps\">").append(Html.num(e.requestsPerSecond()))
                    .append("</td><td class=\"failures\">").append(count(e.failures())).append("</td><td>")
                    .append(Html.percent(e.errorRatio())).append("</td><td>").append(Html.num(e.p50Ms()))
                    .append("</td><td class=\"p95\">").append(Html.num(e.p95Ms())).append("</td><td>")
                    .append(Html.num(e.p99Ms())).append("</td><td class=\"how\">").append(Html.text(e.how()))
                    .append("</td></tr>");
        }
        html.append("</tbody></table>");
        if (!withStatus && !rows.isEmpty()) {
            html.append("<p class=\"note\">The tool sent no status per endpoint: that column is left out.</p>");
        }
    }

    /**
     * The failures by status and message; without any, how many failed all the same (a tool may count failures per
     * endpoint without saying why in every step: Locust's {@code _failures.csv} holds run totals).
     */
    private static void errorTable(StringBuilder html, List<ErrorView> rows, List<EndpointView> endpoints,
            String cssClass) {
        if (rows.isEmpty()) {
            long failed = endpoints.stream().mapToLong(e -> e.failures() == null ? 0 : e.failures()).sum();
            html.append("<p class=\"none ").append(cssClass).append("\">").append(failed == 0 ? "No failed requests."
                    : failed + " failed requests; the tool sent no status or message for them here.").append("</p>");
            return;
        }
        html.append("<table class=\"").append(cssClass).append("\"><thead><tr><th>name</th><th>method</th>"
                + "<th>status</th><th>message</th><th>occurrences</th></tr></thead><tbody>");
        for (ErrorView e : rows) {
            html.append("<tr class=\"error-row\"><td>").append(Html.text(e.name())).append("</td><td>")
                    .append(Html.text(e.method())).append("</td><td>").append(Html.text(e.status()))
                    .append("</td><td class=\"message\">").append(Html.text(e.message()))
                    .append("</td><td class=\"occurrences\">").append(e.occurrences()).append("</td></tr>");
        }
        html.append("</tbody></table>");
    }

    private static String count(Long n) {
        return n == null ? "–" : String.valueOf(n);
    }
}
