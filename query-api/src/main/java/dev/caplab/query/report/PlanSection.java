package dev.caplab.query.report;

import dev.caplab.query.format.Figures;
import dev.caplab.query.plan.Plan;
import dev.caplab.query.plan.ResourceNeed;
import dev.caplab.query.plan.TierPlan;

/** The capacity plan of a profile at the run's max stable load on the run's own tier (from PlanService). */
final class PlanSection {

    private PlanSection() {
    }

    static String render(RunReport report) {
        Plan plan = report.plan();
        StringBuilder html = new StringBuilder("<h3>Capacity plan</h3><p>A profile of x = <span class=\"plan-load\">")
                .append(Html.num(report.planLoad())).append("</span> (")
                .append(report.detail().maxStableX() == null ? "no stable step: x = 0" : "the max stable load")
                .append(") at a planning margin of ").append(Html.percent(plan.margin())).append(" of each ceiling, model ")
                .append(Html.text(plan.model())).append(".</p>");
        for (TierPlan tier : plan.tiers()) {
            html.append("<table class=\"plan kv\">");
            html.append("<tr><th>fit</th><td class=\"plan-fit\" data-fit=\"").append(Html.text(tier.fit()))
                    .append("\">").append(Html.text(Figures.planFit(tier.fit()))).append("</td></tr>");
            RunSection.row(html, "bottleneck", tier.bottleneck());
            RunSection.row(html, "safe load (within the margin)", Html.num(tier.safeLoad()));
            RunSection.row(html, "load at full ceilings", Html.num(tier.fullCeilingLoad()));
            RunSection.row(html, "headroom", tier.headroomX() < 0 ? Html.num(-tier.headroomX()) + " short of the profile"
                    : Html.num(tier.headroomX()) + " to spare");
            html.append("</table><table class=\"plan-resources\"><thead><tr><th>resource</th><th>ceiling</th>"
                    + "<th>needed</th><th>utilisation</th><th>safe x</th><th>± (1 s.e.)</th><th>capped by cliff</th>"
                    + "</tr></thead><tbody>");
            for (ResourceNeed need : tier.resources()) {
                html.append("<tr><td>").append(Html.text(need.resource())).append("</td><td>")
                        .append(Figures.quantity(need.resource(), need.ceiling())).append("</td><td>")
                        .append(Figures.quantity(need.resource(), need.needed()))
                        .append("</td><td>").append(Html.percent(need.utilisation())).append("</td><td>")
                        .append(Html.num(need.safeX())).append("</td><td>").append(Html.num(need.safeXStdErr()))
                        .append("</td><td>").append(need.cappedByCliff() ? "yes" : "no").append("</td></tr>");
            }
            html.append("</tbody></table>");
        }
        for (String warning : plan.warnings()) {
            html.append("<p class=\"warning\">").append(Html.text(warning)).append("</p>");
        }
        return html.toString();
    }
}
