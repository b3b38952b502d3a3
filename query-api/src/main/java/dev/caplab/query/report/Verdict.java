package dev.caplab.query.report;

import dev.caplab.query.runs.ConclusionView;
import dev.caplab.query.throughput.ThroughputLimitView;
import dev.caplab.schema.event.BottleneckRule;
import dev.caplab.schema.event.RunBottleneck;
import dev.caplab.query.format.Figures;
import dev.caplab.query.runs.RunDetail;
import dev.caplab.store.row.RunRow;
import dev.caplab.query.throughput.ThroughputStep;
import dev.caplab.schema.event.SloRule;
import dev.caplab.schema.vocabulary.Comparisons;
import dev.caplab.schema.vocabulary.Unstated;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The one sentence a report opens with, for someone who reads no further: the load the system held under which
 * rules, what ran out first and where, and where throughput stopped growing. Every figure is the conclusion's or the
 * throughput fit's as stored; an absent one leaves its clause out, never a placeholder.
 */
final class Verdict {

    private Verdict() {
    }

    /** The sentence, as plain text (escape it for HTML). */
    static String sentence(RunReport report) {
        RunDetail d = report.detail();
        RunRow run = d.run().run();
        String load = run.loadExpression() == null ? "load" : run.loadExpression();
        List<String> clauses = new ArrayList<>();
        clauses.add(system(run) + " " + held(d, load, report.rules()));
        String bottleneck = bottleneck(report, load);
        if (bottleneck != null) {
            clauses.add(bottleneck);
        }
        ThroughputLimitView limit = report.throughput().throughputLimit();
        if (limit != null) {
            clauses.add("throughput stops growing at " + load + " = " + Figures.number(limit.limit().getKneeX())
                    + ", at " + Figures.number(limit.limit().getPlateauRatePerSecond()) + " requests/s");
        } else {
            TrafficSection.measured(report.throughput()).stream()
                    .filter(t -> t.x() != null && t.requestsPerSecond() != null)
                    .max(Comparator.comparingDouble(ThroughputStep::x))
                    .ifPresent(top -> clauses.add("throughput still grew with load, to "
                            + Figures.number(top.requestsPerSecond()) + " requests/s at " + load + " = "
                            + Figures.number(top.x())));
        }
        return String.join("; ", clauses) + ".";
    }

    /** "shop 1.2 on hetzner tier cx22 (2 vCPU)", leaving out what the run did not say. */
    static String system(RunRow run) {
        String sut = Unstated.orNull(run.sutName());
        StringBuilder s = new StringBuilder(sut == null ? "The system of run " + run.runId() : sut);
        if (sut != null && run.sutVersion() != null && !run.sutVersion().isEmpty()) {
            s.append(' ').append(run.sutVersion());
        }
        String provider = Unstated.orNull(run.provider());
        if (provider != null) {
            s.append(" on ").append(provider);
        }
        if (run.tier() != null && !run.tier().isEmpty()) {
            s.append(provider == null ? " on" : "").append(" tier ").append(run.tier());
        }
        if (run.vcpu() != null) {
            s.append(" (").append(Figures.number(run.vcpu())).append(" vCPU)");
        }
        return s.toString();
    }

    private static String held(RunDetail d, String load, List<SloRule> rules) {
        if (d.conclusion() == null) {
            return "has no verdict yet: no step has closed";
        }
        if (d.maxStableX() == null) {
            if (ConclusionView.NOT_JUDGED.equals(d.maxStableNote())) {
                return "has no max stable load: it declared no SLO rules to judge its steps by";
            }
            return d.maxStableNote() != null ? "has no max stable load: " + d.maxStableNote()
                    : "held none of the tested loads: its first step already failed" + underRules(rules);
        }
        return "holds " + load + " = " + Figures.number(d.maxStableX()) + underRules(rules)
                + (d.failedX() == null ? ", and no tested load failed"
                        : " and fails at " + load + " = " + Figures.number(d.failedX()));
    }

    private static String underRules(List<SloRule> rules) {
        if (rules.isEmpty()) {
            return "";
        }
        return " under its rules (" + rules.stream().map(Verdict::rule).collect(Collectors.joining(", ")) + ")";
    }

    /** "p95 of throughput.latency.ms ≤ 200 ms". */
    static String rule(SloRule r) {
        return r.getStatistic() + " of " + r.getMetric() + " " + Comparisons.symbol(r.getComparator())
                + " " + Figures.quantity(r.getMetric(), r.getThreshold());
    }

    private static String bottleneck(RunReport report, String load) {
        RunDetail d = report.detail();
        RunBottleneck b = d.conclusion() == null ? null : d.conclusion().stored().getBottleneck();
        if (b == null) {
            return d.conclusion() == null ? null : report.noResourceRead()
                    ? "no resource of the system was measured, so what runs out first is unknown"
                    : "no resource reached its planning margin";
        }
        String what = b.getMetric() + " of " + b.getSource()
                + (b.getRole() == null || b.getRole().equals(b.getSource()) ? "" : " (" + b.getRole() + ")");
        String margin = Figures.percent(d.conclusion().stored().getMargin());
        if (b.getRule() == BottleneckRule.SMALLEST_SAFE_CAPACITY) {
            // the fitted line's load: beyond the tested loads it is extrapolated, and the sentence says so
            return what + " runs out first: it reaches " + margin + " of its ceiling at " + load
                    + (Figures.beyondTested(b.getValue(), d.testedToX()) ? " " : " = ")
                    + Figures.safeX(b.getValue(), d.testedToX());
        }
        if (b.getStepIndex() != null) {
            return what + " runs out first: it reached " + margin + " of its ceiling in step " + b.getStepIndex();
        }
        return what + " runs out first";
    }
}
