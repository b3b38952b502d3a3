package dev.caplab.query.report;

import dev.caplab.schema.serde.AvroTrust;
import dev.caplab.query.runs.ConclusionView;
import dev.caplab.query.throughput.ThroughputLimitView;
import dev.caplab.schema.event.BottleneckRule;
import dev.caplab.schema.event.ResourceEstimate;
import dev.caplab.schema.event.RunBottleneck;
import dev.caplab.schema.event.RunConclusion;
import dev.caplab.schema.event.RunThroughputLimit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caplab.schema.event.SloRule;
import dev.caplab.schema.event.RuleOutcome;
import dev.caplab.schema.event.Comparator;
import dev.caplab.query.plan.Plan;
import dev.caplab.query.plan.TierPlan;
import dev.caplab.query.fits.FitView;
import dev.caplab.query.testing.StoredFits;
import dev.caplab.query.runs.RunDetail;
import dev.caplab.query.runs.RunSummary;
import dev.caplab.query.steps.StepView;
import dev.caplab.store.row.RunRow;
import dev.caplab.store.row.RunStep;
import dev.caplab.query.throughput.RunThroughput;
import dev.caplab.query.throughput.SloLine;
import dev.caplab.query.throughput.ThroughputService;
import dev.caplab.query.throughput.ThroughputStep;
import dev.caplab.schema.event.RunWarning;
import dev.caplab.schema.serde.AvroJson;
import dev.caplab.schema.event.Alert;
import dev.caplab.schema.event.AlertKind;
import dev.caplab.schema.event.RunLateness;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The renderer alone, on hand-built runs: hostile strings stay text, nothing can be fetched, axes are shared. */
class ReportHtmlTest {

    static {
        AvroTrust.install(); // the conclusions built here default to event classes Avro checks by name
    }

    private static final String HOSTILE = "<script>alert('sut')</script>";
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void userStringsAreEscapedEverywhere() {
        String html = ReportHtml.render(List.of(report("run-\"><img src=x onerror=alert(1)>", HOSTILE,
                "users<b>", List.of(10.0, 20.0))));
        assertThat(html.toLowerCase()).doesNotContain("<script").doesNotContain("<img").doesNotContain("<b>")
                .doesNotContain("onerror=alert(1)>");
        assertThat(html).contains("&lt;script&gt;alert(&#39;sut&#39;)&lt;/script&gt;")
                .contains("run-&quot;&gt;&lt;img src=x onerror=alert(1)&gt;")
                .contains("users&lt;b&gt;");
    }

    @Test
    void theDocumentCannotFetchAnything() {
        String html = ReportHtml.render(List.of(report("r1", "sut", "users", List.of(10.0, 20.0))));
        assertThat(html).contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';");
        assertThat(html.toLowerCase()).doesNotContain("http://").doesNotContain("https://").doesNotContain("src=")
                .doesNotContain("href=").doesNotContain("url(").doesNotContain("@import").doesNotContain("<script")
                .doesNotContain("<link");
    }

    @Test
    void equalRunsGiveTheSameBytesWhateverOrderTheirLabelsCameIn() {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("team", "a");
        labels.put("env", "staging");
        labels.put("owner", "ops");
        Map<String, String> reversed = new LinkedHashMap<>();
        List<String> keys = new ArrayList<>(labels.keySet());
        for (int i = keys.size() - 1; i >= 0; i--) {
            reversed.put(keys.get(i), labels.get(keys.get(i)));
        }
        String html = ReportHtml.render(List.of(report("r1", "sut", "users", List.of(10.0, 20.0), labels)));
        assertThat(ReportHtml.render(List.of(report("r1", "sut", "users", List.of(10.0, 20.0), reversed))))
                .isEqualTo(html);
        // arithmetic on the input, not the renderer: the labels are listed by name
        assertThat(html.indexOf("env=staging")).isPositive().isLessThan(html.indexOf("owner=ops"));
        assertThat(html.indexOf("owner=ops")).isLessThan(html.indexOf("team=a"));
    }

    @Test
    void runsOfOneLoadExpressionShareAxesAndOthersDoNot() {
        // r1 reaches x = 20 and r2 x = 40: on a shared axis, x = 10 sits at the same place in both charts
        RunReport r1 = report("r1", "sut", "users", List.of(10.0, 20.0));
        RunReport r2 = report("r2", "sut", "users", List.of(10.0, 40.0));
        RunReport other = report("r3", "sut", "sessions", List.of(10.0, 20.0));
        List<String> shared = cxOfFirstPoint(ReportHtml.render(List.of(r1, r2)));
        assertThat(shared).hasSize(2);
        assertThat(shared.get(0)).isEqualTo(shared.get(1));
        List<String> separate = cxOfFirstPoint(ReportHtml.render(List.of(r2, other)));
        assertThat(separate.get(0)).isNotEqualTo(separate.get(1));
        assertThat(ReportHtml.render(List.of(r2, other))).contains("different load expressions");
    }

    @Test
    void theConclusionsWarningsAreShownBeforeTheStepsEscaped() {
        RunReport base = report("r1", "sut", "users", List.of(10.0, 20.0));
        RunDetail d = base.detail();
        ConclusionView warned = new ConclusionView(RunConclusion.newBuilder(d.conclusion().stored())
                .setWarnings(List.of(new RunWarning("NO_LOAD_METRIC", "no step: send <vus>"))).build());
        RunDetail detail = new RunDetail(d.run(), warned, d.steps(), d.fits(), d.alerts(), d.lateness(),
                d.egressCeiling(), d.throughputLimit(), d.warnings(), d.continuation());
        String html = ReportHtml.render(List.of(new RunReport(detail, base.resources(), base.throughput(),
                base.plan(), base.planLoad())));
        assertThat(html).contains("<p class=\"warning conclusion-warning\">no step: send &lt;vus&gt;</p>");
        assertThat(html.indexOf("conclusion-warning")).as("before the steps table").isLessThan(html.indexOf("Steps and verdicts"));
        assertThat(ReportHtml.render(List.of(base))).doesNotContain("conclusion-warning");
    }

    @Test
    void stepsFitsAndKneeAreShown() {
        String html = ReportHtml.render(List.of(report("r1", "sut", "users", List.of(10.0, 20.0))));
        assertThat(count(html, "<tr class=\"step pass")).isEqualTo(1);
        assertThat(count(html, "<tr class=\"step fail")).isEqualTo(1);
        assertThat(html).contains("<td class=\"knee\">15</td>").contains("<td class=\"knee-interval\">14.2 – 15.8</td>");
        // a knee stands, so the capacity line and the fit's first segment differ: the report says why, as the page does
        assertThat(html).contains("<p class=\"note capacity-vs-fit\">Capacity (safe x) uses the straight line");
        // one point per step in the resource chart, three latency series and one throughput series of two points
        assertThat(count(html, "<circle class=\"point use")).isEqualTo(2);
        assertThat(count(html, "<circle class=\"point p95")).isEqualTo(2);
    }

    @Test
    void aStepPastItsMarginOnAnotherResourceThanTheBottleneckIsExplained() {
        // the conclusion names cpu.cores@host; a step naming the same resource needs no word, another one does
        String same = ReportHtml.render(List.of(report("r1", "sut", "users", List.of(10.0, 20.0))));
        assertThat(same).contains("<td>cpu.cores@host</td>").doesNotContain("over-margin-vs-bottleneck");
        String other = ReportHtml.render(List.of(report("r1", "sut", "users", List.of(10.0, 20.0), Map.of(),
                "net.tx.bytes@host")));
        assertThat(other).contains("<td>net.tx.bytes@host</td>").contains("<p class=\"note over-margin-vs-bottleneck\">"
                + "“Over margin” names, in each step, the resource furthest past its planning margin");
    }

    @Test
    void theThroughputLimitItsIntervalTheSloLineAndTheGeneratorWarningAreShown() {
        String html = ReportHtml.render(List.of(report("r1", "sut", "users", List.of(10.0, 20.0))));
        assertThat(html).contains("<b class=\"limit-x\">users=15</b>")
                .contains("<span class=\"limit-interval\">14 – 16</span>")
                .contains("<span class=\"limit-rate\">11</span>");
        assertThat(count(html, "class=\"band throughput-limit\"")).isEqualTo(1);
        assertThat(count(html, "class=\"marker slo\"")).as("the p95 <= 500 ms rule on the latency chart").isEqualTo(1);
        assertThat(html).as("the legend writes the rule once, with its unit").contains("SLO p95 ≤ 500 ms")
                .doesNotContain("500 500");
        assertThat(html).contains("<p class=\"warning throughput-warning\">the load generator, not the server, was the"
                + " limit: its CPU was at 95 % at users=20");
    }

    @Test
    void opensWithOneSentenceNamesTheRunOnceAndSaysNoEnumName() {
        RunReport base = report("r1", "shop", "users", List.of(10.0, 20.0));
        RunDetail d = base.detail();
        RunDetail limited = new RunDetail(d.run(), d.conclusion(), d.steps(), d.fits(), d.alerts(), d.lateness(),
                d.egressCeiling(), base.throughput().throughputLimit(), d.warnings(), d.continuation());
        String html = ReportHtml.render(List.of(new RunReport(limited, base.resources(), base.throughput(),
                new Plan("max stable load", 10, 0.6, "capacity/1", List.of(new TierPlan("r1", "prov", "tier-a", 2.0,
                        10, "TIGHT", "cpu.cores", 3.41, 12, -6.59, List.of(), 20.0)), List.of()), 10,
                List.of(SloRule.newBuilder().setName("p95-latency").setMetric("throughput.latency.ms")
                        .setStatistic("p95").setComparator(Comparator.LE).setThreshold(200.0).build()))));
        // the fixture: stable at 10, fails at 20, cpu.cores of host reaches 0.6 of its ceiling at x = 22 by its line,
        // past the highest tested load 20; the request rate levels off at x = 15 at 11/s
        assertThat(html).contains("<p class=\"verdict\">shop 1.0 on prov tier tier-a (2 vCPU) holds users = 10 under"
                + " its rules (p95 of throughput.latency.ms ≤ 200 ms) and fails at users = 20; cpu.cores of host runs out"
                + " first: it reaches 60 % of its ceiling at users ≈ 22 (beyond the tested 20); throughput stops growing"
                + " at users = 15, at 11 requests/s.</p>");
        assertThat(html.substring(html.indexOf("<body>"))).as("the run id once in the page").containsOnlyOnce("r1<");
        String text = html.replaceAll("<[^>]*>", " ");
        assertThat(text).as("what a reader sees").doesNotContain("TIGHT").doesNotContain("SMALLEST_SAFE_CAPACITY")
                .doesNotContain("DECLARED");
        assertThat(html).contains("<tr><th>origin</th><td>declared</td></tr>");
        assertThat(html)
                .contains("fits only past the planning margin, under the full ceilings")
                .contains("<td>6.59 short of the profile</td>").contains("<td>2 GiB</td>");
    }

    @Test
    void theEnvironmentNamesWhatTheRunDidNotDeclareOnceInsteadOfADashPerRow() {
        // the fixture declares neither a region nor an egress ceiling
        String html = ReportHtml.render(List.of(report("r1", "shop", "users", List.of(10.0, 20.0))));
        String environment = html.substring(html.indexOf("<table class=\"environment kv\">"));
        environment = environment.substring(0, environment.indexOf("</table>"));
        assertThat(environment).contains("<tr><th>not declared</th><td class=\"unstated\">region, egress ceiling (")
                .contains("<tr><th>instance type</th><td>t2</td></tr>").doesNotContain("–")
                .doesNotContain("<th>region</th>").doesNotContain("<th>egress ceiling</th>");
    }

    @Test
    void everyMarkerLineDrawnHasAColour() {
        // an SVG line without a stroke is invisible while its legend swatch still shows: the SLO line was
        String html = ReportHtml.render(List.of(report("r1", "shop", "users", List.of(10.0, 20.0))));
        Matcher marker = Pattern.compile("<line class=\"marker (\\w+)\"").matcher(html);
        List<String> kinds = new ArrayList<>();
        while (marker.find()) {
            kinds.add(marker.group(1));
        }
        assertThat(kinds).contains("slo", "ceiling", "margin");
        String style = html.substring(html.indexOf("<style>"), html.indexOf("</style>"));
        assertThat(kinds).allSatisfy(kind -> assertThat(style).containsPattern("\\." + kind + "\\{[^}]*stroke:#"));
    }

    @Test
    void aRunNobodyNamedIsNotSaidToBeOfASystemCalledUnknown() {
        // a run inferred from its samples stores the system as schema's Unstated value, "unknown"
        String html = ReportHtml.render(List.of(report("r1", "unknown", "users", List.of(10.0, 20.0))));
        assertThat(html).contains("<h1>Capacity report: run r1, system not declared</h1>")
                .contains("<p class=\"verdict\">The system of run r1 on prov tier tier-a (2 vCPU) ")
                .contains("<span class=\"sut\">system not declared</span>")
                .contains("<td class=\"unstated\">system under test, ")
                .doesNotContain(">unknown").doesNotContain("unknown has");
    }

    @Test
    void aRunStartedWithoutAProviderIsNotSaidToRunOnOneCalledUnknown() {
        RunRow run = new RunRow("r", T0, "shop", "1.0", null, "unknown", null, "t2", "tier-a", 2.0, 1L << 31, null,
                null, "k6", Map.of(), List.of(), List.of(), "users", "DECLARED", T0.plusSeconds(600), "COMPLETED",
                null, 1);
        assertThat(Verdict.system(run)).isEqualTo("shop 1.0 on tier tier-a (2 vCPU)");
    }

    @Test
    void theSentenceSaysWhenThroughputKeptGrowingAndWhenNoRulesJudged() {
        RunReport base = report("r1", "shop", "users", List.of(10.0, 20.0));
        RunThroughput t = base.throughput();
        RunThroughput growing = new RunThroughput(t.runId(), t.loadExpression(), t.steps(), null, t.sloLines(),
                List.of());
        ConclusionView unjudged = new ConclusionView(RunConclusion.newBuilder(base.detail().conclusion().stored())
                .setMaxStableX(null).setMaxStableStepIndex(null).setFirstFailingX(null).setFirstFailingStepIndex(null)
                .setStepsJudged(0).setStepsSkipped(2).setWarnings(List.of()).setRulesFrom("none").build());
        RunDetail d = base.detail();
        RunDetail detail = new RunDetail(d.run(), unjudged, d.steps(), d.fits(), d.alerts(), d.lateness(),
                d.egressCeiling(), null, List.of(), d.continuation());
        String html = ReportHtml.render(List.of(new RunReport(detail, base.resources(), growing, base.plan(), 0)));
        // the fixture's busiest step: 12 requests/s at x = 20, the highest tested load, short of the line's 22
        assertThat(html).contains("<p class=\"verdict\">shop 1.0 on prov tier tier-a (2 vCPU) has no max stable load:"
                + " it declared no SLO rules to judge its steps by; cpu.cores of host runs out first: it reaches 60 % of"
                + " its ceiling at users ≈ 22 (beyond the tested 20); throughput still grew with load, to 12 requests/s"
                + " at users = 20.</p>");
    }

    @Test
    void aSafeLoadBeyondTheTestedLoadsIsMarkedWhereverItIsShownAndOneWithinThemIsNot() {
        // the fixture's line reaches 0.6 of the CPU ceiling at x = 22: past a run tested to 20, within one tested to 30
        RunReport beyond = report("r1", "shop", "users", List.of(10.0, 20.0));
        RunDetail d = beyond.detail();
        String html = ReportHtml.render(List.of(new RunReport(d, beyond.resources(), beyond.throughput(),
                new Plan("max stable load", 10, 0.6, "capacity/1", List.of(new TierPlan("r1", "prov", "tier-a", 2.0,
                        10, "FITTING", "cpu.cores", 22, 36, 12, List.of(new dev.caplab.query.plan.ResourceNeed(
                                "cpu.cores", 2, 0.6, 0.3, 22, 1.5, false)), 20.0)), List.of()), 10)));
        assertThat(html).contains("<td class=\"safe-x\">≈ 22 (beyond the tested 20) <small>(at 60 % of the ceiling)")
                .contains("<tr><th>safe load (within the margin)</th><td>≈ 22 (beyond the tested 20)</td></tr>")
                .contains("<tr><th>load at full ceilings</th><td>≈ 36 (beyond the tested 20)</td></tr>")
                .contains("<td>30 %</td><td>≈ 22 (beyond the tested 20)</td>");
        String note = "<p class=\"note beyond-tested-note\">≈ marks a load beyond the highest load the run tested: the"
                + " straight line through its steps extrapolated, not a load the system was seen to hold.</p>";
        assertThat(count(html, note)).as("under the fits and under the plan").isEqualTo(2);

        String within = ReportHtml.render(List.of(report("r1", "shop", "users", List.of(10.0, 30.0))));
        assertThat(within).contains("it reaches 60 % of its ceiling at users = 22;")
                .contains("<td class=\"safe-x\">22 <small>").doesNotContain("≈").doesNotContain("beyond-tested-note");
    }

    @Test
    void aRunWithOnlyTheLoadToolsReadingsSaysNoResourceWasMeasuredAndWhatToSend() {
        RunReport base = report("r1", "shop", "users", List.of(10.0, 20.0));
        RunDetail d = base.detail();
        ConclusionView unmeasured = new ConclusionView(RunConclusion.newBuilder(d.conclusion().stored())
                .setBottleneck(null).setResources(List.of()).setWarnings(List.of()).setRulesFrom("run").build());
        RunDetail detail = new RunDetail(d.run(), unmeasured, d.steps(), List.of(), d.alerts(), d.lateness(),
                d.egressCeiling(), d.throughputLimit(), d.warnings(), d.continuation());
        // what PlanService says of a run whose conclusion has no fitted resource: it is left out
        Plan empty = new Plan("max stable load", 10, 0.6, "capacity-linear/2", List.of(), List.of("run r1 (tier tier-a)"
                + " is left out: its conclusion has no fitted resource"));
        String html = ReportHtml.render(List.of(new RunReport(detail, List.of(), base.throughput(), empty, 10,
                List.of(), base.endpoints(), 0)));
        assertThat(html).contains("<h3>Capacity plan</h3><p class=\"no-plan\">No resource was measured, so no capacity"
                + " plan can be made: this run holds only the load tool&#39;s readings, no CPU, memory or network of the"
                + " system under test. Run a host sampler (caplab sample --run r1) on the server, or send its"
                + " node_exporter, docker stats or process-exporter readings beside the load, to see what runs out"
                + " first and get a capacity plan.</p>");
        assertThat(html).as("no profile of a plan that cannot be made, nor the planner's warning")
                .doesNotContain("A profile of x =").doesNotContain("is left out");
        assertThat(html).contains("; no resource of the system was measured, so what runs out first is unknown;")
                .doesNotContain("no resource reached its planning margin")
                .contains("<p class=\"none\">No fits: no resource was measured in any step (the capacity plan below"
                        + " says what to send).</p>");

        // resources read in 2 steps, too few for a fit: that is said instead
        String few = ReportHtml.render(List.of(new RunReport(detail, List.of(), base.throughput(), empty, 10,
                List.of(), base.endpoints(), 2)));
        assertThat(few).contains("No capacity plan can be made: no resource was fitted against the load. Resources were"
                + " read in 2 steps; a fit needs readings of one resource of the system under test or its host in 3"
                + " uncontaminated steps").contains("no resource reached its planning margin");
    }

    /** The cx of the first point of each run's cpu chart, in document order. */
    private static List<String> cxOfFirstPoint(String html) {
        Matcher m = Pattern.compile("data-chart=\"resource:cpu.cores\".*?<circle class=\"point use [a-z]*\" cx=\"([0-9.]+)\"")
                .matcher(html);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    /** A run with one passing and one failing step at {@code xs}, a CPU fit with a knee at 15 [14.2, 15.8]. */
    static RunReport report(String runId, String sut, String loadExpression, List<Double> xs) {
        return report(runId, sut, loadExpression, xs, Map.of("team", "<b>x</b>"));
    }

    static RunReport report(String runId, String sut, String loadExpression, List<Double> xs,
            Map<String, String> labels) {
        return report(runId, sut, loadExpression, xs, labels, "cpu.cores@host");
    }

    /** The same run with {@code overMargin} as the failing step's "over margin" resource (metric@source). */
    static RunReport report(String runId, String sut, String loadExpression, List<Double> xs,
            Map<String, String> labels, String overMargin) {
        RunSummary run = new RunSummary(new RunRow(runId, T0, sut, "1.0", null, "prov", null, "t2", "tier-a", 2.0,
                1L << 31, null, null, "k6", labels, List.of(), List.of(), loadExpression, "DECLARED",
                T0.plusSeconds(600), "COMPLETED", null, 1), null, null, null);
        RuleOutcome p95 = RuleOutcome.newBuilder().setRule(SloRule.newBuilder().setName("p95")
                .setMetric("http_req_duration").setStatistic("p95").setComparator(Comparator.LE).setThreshold(500.0)
                .build()).setObserved(900.0).setPassed(false).build();
        List<StepView> steps = StepView.of(List.of(
                new RunStep(runId, 0, Map.of(loadExpression, xs.get(0)), xs.get(0), T0, T0.plusSeconds(60), 5_000,
                        true, false, null, null, List.of(), 0),
                new RunStep(runId, 1, Map.of(loadExpression, xs.get(1)), xs.get(1), T0.plusSeconds(60),
                        T0.plusSeconds(120), 5_000, false, false, null, overMargin, List.of(p95), 0)));
        FitView fit = new FitView(StoredFits.fit(runId, "host", "cpu.cores", "segmented-1", "1", loadExpression, 2,
                List.of(StoredFits.segment(xs.get(0), 15, 0.1, 0.05, 0.01),
                        StoredFits.segment(15, xs.get(1), -2, 0.19, null)),
                List.of(StoredFits.breakpoint(15, 0.4, 14.2, 15.8)), 0.01, 0.99, true, 1, 2.0, 0.6, 22.0, true,
                T0.plusSeconds(700), 1));
        // the CPU line's estimate: 0.1 + 0.05·x reaches 0.6 of 2 cores at x = 22, the bottleneck
        ResourceEstimate cpu = ResourceEstimate.newBuilder().setSource("host").setMetric("cpu.cores").setIntercept(0.1)
                .setSlope(0.05).setDegreesOfFreedom(0).setPreKneeSteps(2).setFromX(xs.get(0)).setToX(15)
                .setCeiling(2.0).setSafeCapacityX(22.0).setKneeX(15.0).setRole("host").build();
        RunConclusion conclusion = RunConclusion.newBuilder().setRunId(runId).setMaxStableX(xs.get(0))
                .setMaxStableStepIndex(0).setFirstFailingX(xs.get(1)).setFirstFailingStepIndex(1).setStepsJudged(2)
                .setStepsSkipped(0).setBottleneck(RunBottleneck.newBuilder().setSource("host").setMetric("cpu.cores")
                        .setRule(BottleneckRule.SMALLEST_SAFE_CAPACITY).setValue(22.0).setRole("host").build())
                .setMargin(0.6).setResources(List.of(cpu)).setRunClosed(true).setModel("caplab-run-conclusion/1")
                .setConcludedAt(T0.plusSeconds(700)).setVersion(1).build();
        RunDetail detail = new RunDetail(run, new ConclusionView(conclusion), steps, List.of(fit),
                List.of(Alert.newBuilder().setRunId(runId).setAt(T0.plusSeconds(120)).setKind(AlertKind.STEP_FAILED)
                        .setStepIndex(1).setMessage("step 1 failed: <p95>").build()),
                RunLateness.newBuilder().setRunId(runId).setLateSamples(0).setBeyondLatenessSamples(0)
                        .setUpdatedAt(Instant.EPOCH).build(), null, null, List.of(), null);
        List<FittedResource> resources = List.of(new FittedResource(fit, List.of(
                new FittedResource.Point(0, xs.get(0), 0.6, true, false),
                new FittedResource.Point(1, xs.get(1), 1.9, false, false))));
        // the request rate stopped growing at x = 15 [14, 16] at 11/s; the generator was busy (95 %) at the second step
        RunThroughputLimit limit = RunThroughputLimit.newBuilder().setKneeX(15).setKneeLower95(14.0)
                .setKneeUpper95(16.0).setPlateauRatePerSecond(11).setSlopeBeforePerX(1).setSlopeAfterPerX(0.1)
                .setBreakpointPValue(0.01).setStepsUsed(2).setFittedAt(T0.plusSeconds(700))
                .setGeneratorSaturatedAtX(xs.get(1)).setGeneratorCpuPercent(95.0).build();
        List<ThroughputStep> traffic = List.of(
                new ThroughputStep(0, Map.of(loadExpression, xs.get(0)), xs.get(0), 10.0, 600L, 0.0, 100.0, 120.0,
                        150.0, 50.0, true, "merged sketch of 600 requests (±1 %)", 104.5, "exact mean of 600 requests"),
                new ThroughputStep(1, Map.of(loadExpression, xs.get(1)), xs.get(1), 12.0, 720L, 0.1, 400.0, 900.0,
                        1200.0, 95.0, false, "median of the tool's 60 window percentiles", null, null));
        RunThroughput throughput = new RunThroughput(runId, loadExpression, traffic, ThroughputLimitView.of(limit),
                List.of(SloLine.of(SloRule.newBuilder().setName("p95 <= 500").setMetric("http_req_duration")
                        .setStatistic("p95").setComparator(Comparator.LE).setThreshold(500.0).build(), "latency")),
                ThroughputService.warnings(limit, loadExpression, traffic, "k6"));
        Plan plan = new Plan("max stable load", xs.get(0), 0.6, "capacity/1", List.of(), List.of("no <tier>"));
        return new RunReport(detail, resources, throughput, plan, xs.get(0));
    }
}
