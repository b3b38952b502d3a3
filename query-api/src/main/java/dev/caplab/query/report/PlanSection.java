package dev.caplab.query.report;

import dev.caplab.query.format.Figures;
import dev.caplab.query.plan.Plan;
import dev.caplab.query.plan.ResourceNeed;
import dev.caplab.query.plan.TierPlan;

/**
 * The capacity plan of a profile at the run's max stable load on the run's own tier (from PlanService), or why none
 * can be made of this run and what to send for one.
 */
final class PlanSection {

    private PlanSection() {
    }

    static String render(RunReport report) {
        String none = whyNone(report);
        if (none != null) {
            return "<h3>Capacity plan</h3><p class=\"no-plan\">" + Html.text(none) + "</p>";
        }
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
            RunSection.row(html, "safe load (within the margin)", Figures.safeX(tier.safeLoad(), tier.testedToX()));
            RunSection.row(html, "load at full ceilings", Figures.safeX(tier.fullCeilingLoad(), tier.testedToX()));
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
                        .append(Html.text(Figures.safeX(need.safeX(), tier.testedToX()))).append("</td><td>")
                        .append(Figures.standardError(need.safeXStdErr()))
                        .append("</td><td>").append(need.cappedByCliff() ? "yes" : "no").append("</td></tr>");
            }
            html.append("</tbody></table>");
        }
        if (plan.tiers().stream().anyMatch(PlanSection::beyondTested)) {
            html.append("<p class=\"note beyond-tested-note\">").append(Html.text(Figures.beyondTestedNote()))
                    .append("</p>");
        }
        for (String warning : plan.warnings()) {
            html.append("<p class=\"warning\">").append(Html.text(warning)).append("</p>");
        }
        return html.toString();
    }

    /** Whether a load the plan of {@code tier} shows lies beyond the highest load its run tested. */
    private static boolean beyondTested(TierPlan tier) {
        return Figures.beyondTested(tier.safeLoad(), tier.testedToX())
                || Figures.beyondTested(tier.fullCeilingLoad(), tier.testedToX())
                || tier.resources().stream().anyMatch(n -> Figures.beyondTested(n.safeX(), tier.testedToX()));
    }

    /**
     * Why no capacity plan can be made of this run, as sentences for the reader: no step closed yet, no resource
     * read in any step (only the load tool's readings: what to send), or none fitted; null when it has a fitted
     * resource (a plan then says what it can, and PlanService warns of what it cannot).
     */
    static String whyNone(RunReport report) {
        if (report.detail().conclusion() == null) {
            return "No capacity plan yet: no step has closed, so no resource has been fitted against the load.";
        }
        if (!report.detail().conclusion().stored().getResources().isEmpty() || !report.resources().isEmpty()) {
            return null;
        }
        if (report.noResourceRead()) {
            return "No resource was measured, so no capacity plan can be made: "
                    + Figures.noResourceReadings(report.runId());
        }
        return "No capacity plan can be made: no resource was fitted against the load. Resources were read in "
                + report.resourceSteps() + (report.resourceSteps() == 1 ? " step" : " steps") + "; a fit needs"
                + " readings of one resource of the system under test or its host in 3 uncontaminated steps (the load"
                + " generator's and monitoring agents' own use are never fitted).";
    }
}
